//===- Outputs.cpp - Files accyc reads and writes -----------------------------------===//

#include "Outputs.h"

#include "accy/Pipeline/StageFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace accy;
using namespace accy::driver;

std::string accy::driver::outputName(llvm::StringRef input) {
  llvm::StringRef file = llvm::sys::path::filename(input);
  if (file.consume_back(".mlirbc") || file.consume_back(".mlir")) {
    // NAME.STAGE.mlirbc
    auto [name, stage] = file.rsplit('.');
    if (!stage.empty() && parseStageName(stage))
      return name.str();
    return file.str();
  }
  return llvm::sys::path::stem(input).str();
}

std::string accy::driver::sourceMapPath(llvm::StringRef stageFile) {
  llvm::SmallString<256> path(llvm::sys::path::parent_path(stageFile));
  llvm::sys::path::append(path, outputName(stageFile) + ".srcmap.json");
  return std::string(path);
}

llvm::Error accy::driver::writeDepfile(llvm::StringRef path,
                                       llvm::StringRef target,
                                       llvm::ArrayRef<std::string> deps) {
  // Spaces in paths are escaped the way Make and Ninja read them.
  auto escape = [](llvm::StringRef p) {
    std::string out;
    for (char ch : p) {
      if (ch == ' ' || ch == '#')
        out += '\\';
      if (ch == '$')
        out += '$';
      out += ch;
    }
    return out;
  };
  std::string text = escape(target) + ":";
  for (const std::string &dep : deps)
    text += " \\\n  " + escape(dep);
  text += "\n";
  return writeFileIfChanged(path, text).takeError();
}

llvm::Expected<Compilation>
accy::driver::compileFromStageFile(Compiler &compiler,
                                   mlir::MLIRContext &context,
                                   llvm::StringRef path, StageId stage) {
  auto product = readProductFile(context, path);
  if (!product)
    return product.takeError();
  SourceMap map;
  if (auto text = llvm::MemoryBuffer::getFile(sourceMapPath(path))) {
    if (auto parsed = SourceMap::fromJson((*text)->getBuffer()))
      map = std::move(*parsed);
    else
      llvm::consumeError(parsed.takeError()); // failures lose their ranges
  }
  return compiler.compileFrom(std::move(*product), stage, std::move(map));
}

void accy::driver::removeStale(llvm::StringRef path) {
  llvm::sys::fs::remove(path);
}
