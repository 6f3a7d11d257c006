//===- CacheCommand.cpp - accyc cache, and which store a command uses -----===//
//
// `accyc cache stats` prints what `ccache -s` prints for its cache: hits,
// misses, writes and corrupt entries found (every process's, since the last
// clear), entries and bytes, per stage and in total; the steps served
// whole from step entries, and those entries; and what the remote
// caches did: hits, misses, writes, errors, timeouts, corrupt answers and
// bytes read and written.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::driver;

llvm::Expected<std::optional<KernelStoreConfig>>
accy::driver::storeConfigFor(const Options &options) {
  // --remote-cache names the remotes instead of the environment.
  auto config = KernelStoreConfig::fromCommandLine(
      options.cacheDir, options.noCache,
      /*withRemotes=*/!options.remoteCache.has_value());
  if (!config || !*config || !options.remoteCache)
    return config;
  auto remotes = parseRemoteCacheSpec(*options.remoteCache);
  if (!remotes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--remote-cache: " +
                                       llvm::toString(remotes.takeError()));
  (*config)->remotes = std::move(*remotes);
  return config;
}

static std::string humanBytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = bytes;
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return llvm::formatv(unit == 0 ? "{0:F0} {1}" : "{0:F1} {1}", value,
                       units[unit])
      .str();
}

static void printSummary(llvm::raw_ostream &os, const KernelStoreConfig &config,
                         const KernelStoreSummary &summary) {
  os << "kernel store  " << config.directory << "\n"
     << "limit         " << humanBytes(summary.limitBytes) << "\n\n";
  os << llvm::formatv("{0,-8} {1,8} {2,8} {3,8} {4,8} {5,8} {6,11}\n",
                      "stage", "hits", "misses", "writes", "corrupt",
                      "entries", "size");
  uint64_t entries = 0, bytes = 0;
  auto row = [&](llvm::StringRef name,
                 const KernelStoreCounters::PerStage &s, uint64_t n,
                 uint64_t size) {
    os << llvm::formatv("{0,-8} {1,8} {2,8} {3,8} {4,8} {5,8} {6,11}\n", name,
                        s.hits, s.misses, s.writes, s.corrupt, n,
                        humanBytes(size));
  };
  for (StageId stage : kAllStages) {
    if (!isStoredStage(stage))
      continue;
    int i = stageIndex(stage);
    row(stageName(stage), summary.counters.stages[i], summary.entries[i],
        summary.bytes[i]);
    entries += summary.entries[i];
    bytes += summary.bytes[i];
  }
  KernelStoreCounters::PerStage total = summary.counters.total();
  row("total", total, entries, bytes);
  uint64_t lookups = total.hits + total.misses;
  if (lookups)
    os << llvm::formatv("\nhit rate {0:F1}%\n", 100.0 * total.hits / lookups);
  // Steps run whole from their entries (StepEntry.h) ask no stage above.
  os << llvm::formatv("\n{0,-8} {1,8} {2,8} {3,11}\n", "", "served",
                      "entries", "size")
     << llvm::formatv("{0,-8} {1,8} {2,8} {3,11}\n", "steps",
                      summary.stepHits, summary.stepEntries,
                      humanBytes(summary.stepBytes));
  const RemoteCacheCounters &r = summary.counters.remote;
  if (!r.any() && config.remotes.empty())
    return;
  os << "\nremote caches";
  for (const RemoteBackendConfig &remote : config.remotes)
    os << "  " << redactUrl(remote.url)
       << (remote.readOnly ? " (read-only)" : "");
  os << "\n"
     << llvm::formatv(
            "{0,-8} {1,8} {2,8} {3,8} {4,8} {5,8} {6,8} {7,11} {8,11}\n", "",
            "hits", "misses", "writes", "errors", "timeouts", "corrupt", "read",
            "written")
     << llvm::formatv(
            "{0,-8} {1,8} {2,8} {3,8} {4,8} {5,8} {6,8} {7,11} {8,11}\n",
            "remote", r.hits, r.misses, r.writes, r.errors, r.timeouts,
            r.corrupt, humanBytes(r.bytesRead), humanBytes(r.bytesWritten));
}

int accy::driver::runCache(const Options &options) {
  auto config = storeConfigFor(options);
  if (!config) {
    llvm::errs() << "accyc: " << llvm::toString(config.takeError()) << "\n";
    return ExitUsage;
  }
  if (!*config) {
    llvm::errs() << "accyc: cache: no kernel store is configured "
                    "(--no-cache, $ACCY_CACHE_DISABLE, or no HOME)\n";
    return ExitUsage;
  }
  switch (*options.cacheAction) {
  case CacheAction::Stats: {
    auto summary = KernelStore::summarize(**config);
    if (!summary) {
      llvm::errs() << "accyc: " << llvm::toString(summary.takeError()) << "\n";
      return ExitInternal;
    }
    printSummary(llvm::outs(), **config, *summary);
    return ExitOk;
  }
  case CacheAction::Trim: {
    auto removed = KernelStore::trim(**config);
    if (!removed) {
      llvm::errs() << "accyc: " << llvm::toString(removed.takeError()) << "\n";
      return ExitInternal;
    }
    llvm::outs() << "removed " << humanBytes(*removed) << " from "
                 << (*config)->directory << "\n";
    return ExitOk;
  }
  case CacheAction::Clear:
    if (llvm::Error err = KernelStore::clear(**config)) {
      llvm::errs() << "accyc: " << llvm::toString(std::move(err)) << "\n";
      return ExitInternal;
    }
    llvm::outs() << "cleared " << (*config)->directory << "\n";
    return ExitOk;
  }
  return ExitUsage;
}
