//===- CanonicalNames.cpp - Symbols named apart from the kernel -----------===//

#include "accy/CodeGen/CanonicalNames.h"

#include "accy/CodeGen/CodeGen.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"

using namespace accy::codegen;

namespace {

constexpr llvm::StringLiteral kPrefix = "__accy_sym_";
/// Digits of a canonical name's number: fixed, so that a name derived from
/// one (`__accy_sym_00002_param_0`) ends where its number does.
constexpr size_t kDigits = 5;
constexpr size_t kMostNames = 100000;
constexpr llvm::StringLiteral kModuleName = "accy.piece";

std::string getCanonicalName(size_t index) {
  std::string number = std::to_string(index);
  return (kPrefix + std::string(kDigits - number.size(), '0') + number).str();
}

/// Whether PTX spells `name` as LLVM IR does: NVPTX replaces every other
/// character of a local symbol's name (NVPTXAssignValidGlobalNames), which
/// restoring the name in PTX text would not.
bool isPTXName(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '$';
         });
}

} // namespace

CanonicalNames CanonicalNames::apply(llvm::Module &module) {
  llvm::SmallVector<llvm::GlobalValue *> defined;
  for (llvm::GlobalValue &value : module.global_values()) {
    llvm::StringRef name = value.getName();
    if (name.contains(kPrefix))
      return {};
    // Declarations keep their names: those of intrinsics and libdevice
    // functions mean what they call.
    if (!value.isDeclaration() && isPTXName(name))
      defined.push_back(&value);
  }
  if (defined.size() >= kMostNames)
    return {};
  CanonicalNames result;
  result.isRenamed = true;
  for (llvm::GlobalValue *value : defined) {
    result.names.push_back(value->getName().str());
    value->setName(getCanonicalName(result.names.size() - 1));
  }
  result.moduleName = module.getModuleIdentifier();
  result.sourceFileName = module.getSourceFileName();
  module.setModuleIdentifier(kModuleName);
  module.setSourceFileName(kModuleName);
  return result;
}

std::string CanonicalNames::restore(std::string text) const {
  llvm::StringRef view = text;
  if (!isRenamed || !view.contains(kPrefix))
    return text;
  std::string restored;
  restored.reserve(view.size());
  size_t from = 0;
  for (size_t at; (at = view.find(kPrefix, from)) != llvm::StringRef::npos;) {
    restored += view.slice(from, at);
    llvm::StringRef digits = view.substr(at + kPrefix.size(), kDigits);
    size_t index;
    if (digits.size() == kDigits && llvm::all_of(digits, llvm::isDigit) &&
        !digits.getAsInteger(10, index) && index < names.size()) {
      restored += names[index];
      from = at + kPrefix.size() + kDigits;
    } else {
      restored += kPrefix;
      from = at + kPrefix.size();
    }
  }
  restored += view.substr(from);
  return restored;
}

std::string CanonicalNames::writeBitcode(llvm::Module &module) const {
  if (!isRenamed)
    return codegen::writeBitcode(module);
  // Also the symbols LLVM derived from renamed ones (a clone's `.part.0`).
  llvm::SmallVector<std::pair<llvm::GlobalValue *, std::string>> canonical;
  for (llvm::GlobalValue &value : module.global_values())
    if (value.getName().contains(kPrefix))
      canonical.emplace_back(&value, value.getName().str());
  for (auto &[value, name] : canonical)
    value->setName(restore(name));
  module.setModuleIdentifier(moduleName);
  module.setSourceFileName(sourceFileName);
  std::string bitcode = codegen::writeBitcode(module);
  for (auto &[value, name] : canonical)
    value->setName(name);
  module.setModuleIdentifier(kModuleName);
  module.setSourceFileName(kModuleName);
  return bitcode;
}
