//===- Progress.cpp - $/progress for compiles -----------------------------===//

#include "Progress.h"

using namespace accy::lsp;

void ProgressReporter::begin(const std::string &key, const std::string &title) {
  if (!enabled)
    return;
  auto token = std::make_shared<Token>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    token->id = "accy-compile-" + std::to_string(nextToken++);
    open[key] = token;
  }
  connection.call("window/workDoneProgress/create", {{"token", token->id}},
                  [this, token](const json &, const RpcError *error) {
                    std::lock_guard<std::mutex> lock(mutex);
                    token->acknowledged = !error;
                    token->refused = error != nullptr;
                    if (error) {
                      token->held.clear();
                      return;
                    }
                    for (json &value : token->held)
                      connection.notify("$/progress", {{"token", token->id},
                                                       {"value", std::move(value)}});
                    token->held.clear();
                  });
  send(key, {{"kind", "begin"}, {"title", title}, {"cancellable", false},
             {"percentage", 0}},
       false);
}

void ProgressReporter::report(const std::string &key,
                              const std::string &message,
                              unsigned percentage) {
  if (enabled)
    send(key, {{"kind", "report"}, {"message", message},
               {"percentage", percentage}},
         false);
}

void ProgressReporter::end(const std::string &key, const std::string &message) {
  if (enabled)
    send(key, {{"kind", "end"}, {"message", message}}, true);
}

void ProgressReporter::send(const std::string &key, json value, bool last) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = open.find(key);
  if (it == open.end())
    return;
  std::shared_ptr<Token> token = it->second;
  if (last)
    open.erase(it);
  if (token->refused)
    return;
  if (!token->acknowledged) {
    token->held.push_back(std::move(value));
    return;
  }
  connection.notify("$/progress",
                    {{"token", token->id}, {"value", std::move(value)}});
}
