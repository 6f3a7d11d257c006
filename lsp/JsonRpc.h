//===- JsonRpc.h - JSON-RPC 2.0 over a transport ----------------*- C++ -*-===//
//
// Decodes message bodies with nlohmann/json's non-throwing parser, routes
// requests and notifications to handlers by method name, answers malformed
// messages and unknown methods with the JSON-RPC error codes, tracks
// `$/cancelRequest`, and matches responses to the server's own requests.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_JSONRPC_H
#define ACCY_LSP_JSONRPC_H

#include "Transport.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace accy::lsp {

using json = nlohmann::json;

/// JSON-RPC and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  RequestCancelled = -32800,
};

struct RpcError {
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
};

class RpcConnection;

/// Answers one request, once: later answers are ignored, and a request
/// whose every Reply is dropped unanswered gets an InternalError. After a
/// `$/cancelRequest` for it, any answer becomes RequestCancelled.
class Reply {
public:
  void operator()(json result) const;
  void operator()(RpcError error) const;
  /// True once the client cancelled the request.
  bool cancelled() const;
  std::shared_ptr<const std::atomic<bool>> cancelFlag() const;

private:
  friend class RpcConnection;
  struct State;
  explicit Reply(std::shared_ptr<State> state) : state(std::move(state)) {}
  std::shared_ptr<State> state;
};

class RpcConnection {
public:
  using RequestHandler = std::function<void(const json &params, Reply reply)>;
  using NotificationHandler = std::function<void(const json &params)>;
  using ResponseHandler =
      std::function<void(const json &result, const RpcError *error)>;

  explicit RpcConnection(Transport &transport) : transport(transport) {}

  /// Every request is answered before the next message is read, so the
  /// output follows the input's order (for -lit-test).
  void answerInOrder() { inOrder = true; }

  void onRequest(std::string method, RequestHandler handler);
  void onNotification(std::string method, NotificationHandler handler);

  /// Serves messages until the stream ends or stop() is called.
  void run();
  void stop() { stopped = true; }

  void notify(const std::string &method, json params);
  /// Sends a request of the server's own; `onResponse` runs on the I/O
  /// thread when the answer comes.
  void call(const std::string &method, json params, ResponseHandler onResponse);

private:
  friend class Reply;
  bool handle(FramedMessage message);
  void dispatchRequest(const json &id, const std::string &method,
                       const json &params);
  void handleResponse(const json &message);
  void cancel(const json &params);
  void sendError(const json &id, const RpcError &error);
  void sendResult(const json &id, json result);
  void send(const json &message);
  void finish(const std::string &idKey);

  Transport &transport;
  std::map<std::string, RequestHandler> requestHandlers;
  std::map<std::string, NotificationHandler> notificationHandlers;
  std::mutex mutex;
  /// Requests not yet answered, by their id's JSON text.
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> inFlight;
  std::map<std::string, ResponseHandler> awaitingResponse;
  int nextCallId = 0;
  bool inOrder = false;
  std::condition_variable answered;
  std::atomic<bool> stopped{false};
};

} // namespace accy::lsp

#endif // ACCY_LSP_JSONRPC_H
