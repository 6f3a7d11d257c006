//===- CodeObjectTests.cpp - A file's AMDGPU code object from its kernels -===//
//
// A file of several kernels gets one AMDGPU code object linked from the
// kernels' relocatable objects (linkCodeObjects). A loader reads one
// metadata note per code object, so the linked object must hold exactly
// one, listing every kernel with the metadata its own code object has.

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/CodeGen/Artifacts.h"
#include "accy/CodeGen/CodeGen.h"
#include "accy/ProductAttributes.h"
#include "accy/Stages/Dispatch/Plan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"

#include <map>

using namespace accy;
using namespace accy::test;

namespace {

/// The metadata notes of a code object: each one's kernels, by name, as
/// YAML text of their maps.
std::vector<std::map<std::string, std::string>>
metadataNotes(llvm::StringRef codeObject) {
  auto file = llvm::object::ELF64LEObjectFile::create(
      llvm::MemoryBufferRef(codeObject, "code object"));
  REQUIRE(static_cast<bool>(file));
  const auto &elf = file->getELFFile();
  auto sections = elf.sections();
  REQUIRE(static_cast<bool>(sections));
  std::vector<std::map<std::string, std::string>> notes;
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : elf.notes(section, error)) {
      if (note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::msgpack::Document document;
      REQUIRE(document.readFromBlob(note.getDescAsStringRef(4), false));
      // The root set to each kernel in turn prints that kernel alone.
      std::map<std::string, std::string> kernels;
      llvm::msgpack::ArrayDocNode list =
          document.getRoot().getMap()["amdhsa.kernels"].getArray();
      for (llvm::msgpack::DocNode &kernel : list) {
        std::string yaml;
        llvm::raw_string_ostream os(yaml);
        document.getRoot() = kernel;
        document.toYAML(os);
        kernels[kernel.getMap()[".name"].getString().str()] = os.str();
      }
      notes.push_back(std::move(kernels));
    }
    REQUIRE(succeeded(std::move(error)));
  }
  return notes;
}

/// Each kernel's relocatable objects (one per piece compiled apart) and
/// code object for `target`.
struct KernelCode {
  std::vector<std::string> relocatables;
  std::string codeObject;
};

std::vector<KernelCode> kernelCode(const std::vector<mlir::ModuleOp> &kernels,
                                   llvm::StringRef target) {
  std::vector<KernelCode> code;
  for (mlir::ModuleOp kernel : kernels)
    for (auto binary : kernel.getOps<mlir::gpu::BinaryOp>()) {
      if (binary.getName() != target)
        continue;
      auto object = llvm::cast<mlir::gpu::ObjectAttr>(binary.getObjects()[0]);
      auto pieces =
          object.getProperties().getAs<mlir::ArrayAttr>(kRelocatableProperty);
      REQUIRE(pieces);
      REQUIRE(!pieces.empty());
      KernelCode &kernelCode = code.emplace_back();
      for (auto piece : pieces.getAsRange<mlir::StringAttr>())
        kernelCode.relocatables.push_back(piece.str());
      kernelCode.codeObject = object.getObject().str();
    }
  return code;
}

/// kKernelShapes compiled for gfx90a and gfx942: its kernel modules.
struct AMDGPUCompile {
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  Compilation compilation;
  std::vector<mlir::ModuleOp> kernels;

  AMDGPUCompile() {
    CompileOptions options = defaultOptions();
    options.stages.targets = {"gfx90a", "gfx942"};
    Compiler compiler(*context, options);
    compilation = compiler.compileBuffer("/virtual/objects.accy", kKernelShapes);
    REQUIRE(compilation.succeeded());
    kernels = getKernelModules(compilation.product(StageId::Target));
    REQUIRE(kernels.size() == 4);
  }
};

} // namespace

TEST_CASE("a file's AMDGPU code object links its kernels' objects with one "
          "metadata note",
          "[code-objects]") {
  AMDGPUCompile compiled;
  auto artifacts = codegen::linkFileArtifacts(compiled.kernels, "objects");
  REQUIRE(succeeded(artifacts.takeError()));
  REQUIRE(artifacts->size() == 2);
  for (const codegen::Artifact &artifact : *artifacts) {
    INFO(artifact.target);
    // Every kernel's own code object: its one note.
    std::map<std::string, std::string> expected;
    for (const KernelCode &code : kernelCode(compiled.kernels, artifact.target)) {
      auto own = metadataNotes(code.codeObject);
      REQUIRE(own.size() == 1);
      expected.insert(own[0].begin(), own[0].end());
    }
    REQUIRE(expected.size() >= 4); // a row reduction has two launches
    auto linked = metadataNotes(artifact.bytes);
    REQUIRE(linked.size() == 1);
    CHECK(linked[0] == expected);
  }
}

TEST_CASE("code objects of two AMDGPU targets do not link into one",
          "[code-objects]") {
  AMDGPUCompile compiled;
  std::string gfx90a =
      kernelCode(compiled.kernels, "gfx90a")[0].relocatables.front();
  std::string gfx942 =
      kernelCode(compiled.kernels, "gfx942")[1].relocatables.front();
  auto linked = codegen::linkCodeObjects({gfx90a, gfx942});
  REQUIRE(!linked);
  CHECK_THAT(llvm::toString(linked.takeError()),
             Catch::Contains("metadata notes disagree"));
}
