//===- Progress.h - $/progress for compiles ---------------------*- C++ -*-===//
//
// One work-done progress per compile: the server asks the client to create
// a token (window/workDoneProgress/create) and sends begin, one report per
// stage, and end. Reports made before the client acknowledged the token
// are held back and sent, in order, once it has.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_PROGRESS_H
#define ACCY_LSP_PROGRESS_H

#include "JsonRpc.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace accy::lsp {

class ProgressReporter {
public:
  explicit ProgressReporter(RpcConnection &connection)
      : connection(connection) {}
  /// Off until the client says it supports window.workDoneProgress.
  void enable(bool on) { enabled = on; }

  void begin(const std::string &key, const std::string &title);
  void report(const std::string &key, const std::string &message,
              unsigned percentage);
  void end(const std::string &key, const std::string &message);

private:
  struct Token {
    std::string id;
    bool acknowledged = false;
    bool refused = false;
    std::vector<json> held;
  };
  void send(const std::string &key, json value, bool last);

  RpcConnection &connection;
  bool enabled = false;
  std::mutex mutex;
  /// The open progress of each compile, by the key its caller gave.
  std::map<std::string, std::shared_ptr<Token>> open;
  unsigned nextToken = 0;
};

} // namespace accy::lsp

#endif // ACCY_LSP_PROGRESS_H
