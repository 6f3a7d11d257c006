//===- accy-lsp.cpp - The Accy language server ----------------------------===//

#include "Check.h"
#include "LSPServer.h"

#include "accy/Config.h"
#include "accy/Pipeline/BuildId.h"
#include "accy/Pipeline/KernelStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace accy;
using namespace accy::lsp;

static const char *kUsage =
    "usage: accy-lsp [options]\n"
    "  (no option)        serve LSP over stdin/stdout\n"
    "  --stdio            the same (what vscode-languageclient passes)\n"
    "  --listen PORT      serve one client over TCP on 127.0.0.1:PORT\n"
    "                     (0: any free port, printed on stderr)\n"
    "  --check FILE       run every feature on FILE and print the results\n"
    "  -lit-test          read messages without headers from stdin, split by\n"
    "                     '// -----' lines; answer each request before the\n"
    "                     next (for FileCheck tests)\n"
    "  -I DIR             search DIR for imports\n"
    "  --target LIST      targets of the compile (default host,sm_90)\n"
    "  --retained-documents N\n"
    "                     documents whose stage products stay in memory for\n"
    "                     reuse (default 3; the others recompile every kernel)\n"
    "  --cache-dir DIR    the kernel store shared with accyc (default:\n"
    "                     $ACCY_CACHE_DIR, $XDG_CACHE_HOME/accy or ~/.cache/accy)\n"
    "  --no-cache         neither read nor write the kernel store\n"
    "  --version, --help\n";

namespace {
struct Arguments {
  std::optional<uint16_t> listenPort;
  std::optional<std::string> checkFile;
  bool litTest = false;
  std::string cacheDir;
  bool noCache = false;
  ServerOptions server;
};
} // namespace

/// Parses the command line; prints usage and returns nullopt when wrong.
static std::optional<Arguments> parseArguments(int argc, char **argv) {
  Arguments args;
  args.server.compile.stages.targets = {"host", "sm_90"};
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&]() -> std::optional<llvm::StringRef> {
      if (i + 1 >= argc)
        return std::nullopt;
      return llvm::StringRef(argv[++i]);
    };
    if (arg == "--listen") {
      auto v = value();
      unsigned port = 0;
      if (!v || v->getAsInteger(10, port) || port > 65535) {
        llvm::errs() << "accy-lsp: --listen needs a port number\n" << kUsage;
        return std::nullopt;
      }
      args.listenPort = port;
    } else if (arg == "--check") {
      auto v = value();
      if (!v) {
        llvm::errs() << "accy-lsp: --check needs a file\n" << kUsage;
        return std::nullopt;
      }
      args.checkFile = v->str();
    } else if (arg == "--stdio") {
      // stdin/stdout is the default transport; clients such as
      // vscode-languageclient name it explicitly.
    } else if (arg == "-lit-test" || arg == "--lit-test") {
      args.litTest = true;
    } else if (arg == "-I") {
      auto v = value();
      if (!v) {
        llvm::errs() << "accy-lsp: -I needs a directory\n" << kUsage;
        return std::nullopt;
      }
      args.server.compile.includeDirs.push_back(v->str());
    } else if (arg == "--retained-documents") {
      auto v = value();
      unsigned count = 0;
      if (!v || v->getAsInteger(10, count) || count == 0) {
        llvm::errs() << "accy-lsp: --retained-documents needs a positive "
                        "number\n";
        return std::nullopt;
      }
      args.server.retainedDocuments = count;
    } else if (arg == "--cache-dir") {
      auto v = value();
      if (!v || v->empty()) {
        llvm::errs() << "accy-lsp: --cache-dir needs a directory\n";
        return std::nullopt;
      }
      args.cacheDir = v->str();
    } else if (arg == "--no-cache") {
      args.noCache = true;
    } else if (arg == "--target") {
      auto v = value();
      llvm::SmallVector<llvm::StringRef> parts;
      if (v)
        v->split(parts, ',', -1, /*KeepEmpty=*/false);
      if (parts.empty()) {
        llvm::errs() << "accy-lsp: --target needs a list of targets\n";
        return std::nullopt;
      }
      args.server.compile.stages.targets.clear();
      for (llvm::StringRef p : parts)
        args.server.compile.stages.targets.push_back(p.trim().str());
    } else {
      llvm::errs() << "accy-lsp: unknown argument '" << arg << "'\n" << kUsage;
      return std::nullopt;
    }
  }
  return args;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << kUsage;
      return 0;
    }
    if (arg == "--version") {
      llvm::outs() << "accy-lsp " << ACCY_VERSION << " (revision "
                   << ACCY_REVISION << ")\nbuild id " << compilerBuildId()
                   << "\n";
      return 0;
    }
  }
  std::optional<Arguments> args = parseArguments(argc, argv);
  if (!args)
    return 2;
#if defined(__GLIBC__)
  // Compiles run on each document's worker thread in turn; with an arena
  // per thread, glibc would keep every thread's freed products mapped
  // (measured: 459 MiB instead of 312 MiB peak with 20 large files open).
  mallopt(M_ARENA_MAX, 2);
#endif
  // A pass that crashes becomes an internal failure of its kernel, shown
  // as a diagnostic, instead of taking the editor's server down.
  llvm::CrashRecoveryContext::Enable();
  args->server.compile.stages.buildId = compilerBuildId();
  // The kernel store accyc builds fill: a file built before is opened with
  // its code already generated.
  auto storeConfig =
      KernelStoreConfig::fromCommandLine(args->cacheDir, args->noCache);
  if (!storeConfig) {
    llvm::errs() << "accy-lsp: " << llvm::toString(storeConfig.takeError())
                 << "\n";
    return 2;
  }
  std::unique_ptr<KernelStore> store;
  if (*storeConfig) {
    store = std::make_unique<KernelStore>(std::move(**storeConfig));
    args->server.compile.stages.store = store.get();
  }

  if (args->checkFile)
    return runCheck(*args->checkFile, args->server);

  std::unique_ptr<Transport> transport;
  if (args->litTest) {
    transport = createLitTestTransport();
  } else if (args->listenPort) {
    std::string error;
    transport = createLoopbackTransport(*args->listenPort, error);
    if (!transport) {
      llvm::errs() << "accy-lsp: " << error << "\n";
      return 2;
    }
  } else {
    transport = createStdioTransport();
  }
  LSPServer server(*transport, args->server, /*inOrder=*/args->litTest);
  return server.run();
}
