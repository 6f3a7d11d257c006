//===- accy-format.cpp - Lay out .accy files canonically ------------------===//
//
// gofmt's interface: print the formatted files, or rewrite them (-i), or
// name the ones that would change (--check, for CI). A file that does not
// parse is never touched; its diagnostics are printed and the exit status
// is 1.
//
//===----------------------------------------------------------------------===//

#include "accy/Config.h"
#include "accy/Format/Format.h"
#include "accy/Support/FileWriting.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace accy;

static const char *kUsage =
    "usage: accy-format [options] [FILE...]\n"
    "  (no FILE, or -)    format stdin to stdout\n"
    "  FILE...            print each file formatted\n"
    "  -i                 rewrite the files in place (only those that change)\n"
    "  --check            print the files that are not formatted; exit 1 if any\n"
    "  --indent-width N   spaces per indent level (default 2)\n"
    "  --version, --help\n";

namespace {
enum class Mode { Print, InPlace, Check };

struct Arguments {
  /// --help or --version: print that and do nothing else.
  bool help = false, version = false;
  Mode mode = Mode::Print;
  FormatOptions format;
  std::vector<std::string> files;
};

/// What formatting one input came to.
enum class Outcome { Unchanged, Changed, Refused };
} // namespace

static std::optional<Arguments> parseArguments(int argc, char **argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      args.help = true;
      return args;
    }
    if (arg == "--version") {
      args.version = true;
      return args;
    }
    if (arg == "-i") {
      args.mode = Mode::InPlace;
    } else if (arg == "--check") {
      args.mode = Mode::Check;
    } else if (arg == "--indent-width") {
      unsigned width = 0;
      if (i + 1 >= argc || llvm::StringRef(argv[++i]).getAsInteger(10, width) ||
          width == 0 || width > 16) {
        llvm::errs() << "accy-format: --indent-width needs a number from 1 "
                        "to 16\n";
        return std::nullopt;
      }
      args.format.indentWidth = width;
    } else if (arg.size() > 1 && arg.starts_with("-")) {
      llvm::errs() << "accy-format: unknown argument '" << arg << "'\n"
                   << kUsage;
      return std::nullopt;
    } else {
      args.files.push_back(arg.str());
    }
  }
  if (args.files.empty())
    args.files.push_back("-");
  if (args.mode == Mode::InPlace &&
      llvm::is_contained(args.files, std::string("-"))) {
    llvm::errs() << "accy-format: -i rewrites files; it cannot rewrite stdin\n";
    return std::nullopt;
  }
  return args;
}

static Outcome formatOne(const std::string &path, const Arguments &args) {
  bool isStdin = path == "-";
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << "accy-format: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return Outcome::Refused;
  }
  std::string shownPath = isStdin ? "<stdin>" : path;
  SourceManager sm;
  FileID file = sm.addBuffer(shownPath, (*buffer)->getBuffer().str());
  DiagnosticEngine diags(sm);
  llvm::Expected<FormattedFile> formatted =
      formatFile(file, diags, args.format);
  if (!formatted) {
    printDiagnostics(llvm::errs(), sm, diags.getDiagnostics());
    llvm::errs() << "accy-format: " << llvm::toString(formatted.takeError())
                 << "\n";
    return Outcome::Refused;
  }
  bool changed = formatted->text != sm.getText(file);
  switch (args.mode) {
  case Mode::Print:
    llvm::outs() << formatted->text;
    break;
  case Mode::Check:
    if (changed)
      llvm::outs() << shownPath << "\n";
    break;
  case Mode::InPlace:
    // Through a temporary file renamed over the original, and only when
    // the bytes differ.
    if (llvm::Expected<bool> written =
            writeFileIfChanged(path, formatted->text);
        !written) {
      llvm::errs() << "accy-format: " << llvm::toString(written.takeError())
                   << "\n";
      return Outcome::Refused;
    }
    break;
  }
  return changed ? Outcome::Changed : Outcome::Unchanged;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  std::optional<Arguments> args = parseArguments(argc, argv);
  if (!args)
    return 2;
  if (args->help) {
    llvm::outs() << kUsage;
    return 0;
  }
  if (args->version) {
    llvm::outs() << "accy-format " << ACCY_VERSION << " (revision "
                 << ACCY_REVISION << ")\n";
    return 0;
  }
  int status = 0;
  for (const std::string &path : args->files) {
    Outcome outcome = formatOne(path, *args);
    if (outcome == Outcome::Refused ||
        (outcome == Outcome::Changed && args->mode == Mode::Check))
      status = 1;
  }
  return status;
}
