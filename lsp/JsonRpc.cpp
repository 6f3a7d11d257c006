//===- JsonRpc.cpp - JSON-RPC 2.0 over a transport ------------------------===//

#include "JsonRpc.h"

#include <cstdio>

using namespace accy::lsp;

struct Reply::State {
  RpcConnection *connection;
  json id;
  std::string idKey;
  std::shared_ptr<std::atomic<bool>> cancelled;
  std::atomic<bool> answered{false};

  ~State() {
    if (!answered.exchange(true)) {
      connection->sendError(id, {ErrorCode::InternalError,
                                 "the server dropped the request unanswered"});
      connection->finish(idKey);
    }
  }
};

void Reply::operator()(json result) const {
  if (state->answered.exchange(true))
    return;
  if (cancelled())
    state->connection->sendError(state->id, {ErrorCode::RequestCancelled,
                                             "request cancelled"});
  else
    state->connection->sendResult(state->id, std::move(result));
  state->connection->finish(state->idKey);
}

void Reply::operator()(RpcError error) const {
  if (state->answered.exchange(true))
    return;
  if (cancelled())
    error = {ErrorCode::RequestCancelled, "request cancelled"};
  state->connection->sendError(state->id, error);
  state->connection->finish(state->idKey);
}

bool Reply::cancelled() const { return state->cancelled->load(); }

std::shared_ptr<const std::atomic<bool>> Reply::cancelFlag() const {
  return state->cancelled;
}

void RpcConnection::onRequest(std::string method, RequestHandler handler) {
  requestHandlers[std::move(method)] = std::move(handler);
}

void RpcConnection::onNotification(std::string method,
                                   NotificationHandler handler) {
  notificationHandlers[std::move(method)] = std::move(handler);
}

void RpcConnection::run() {
  transport.run([this](FramedMessage message) { return handle(std::move(message)); });
}

void RpcConnection::send(const json &message) {
  // Invalid UTF-8 in a string (a broken document) is replaced, not thrown.
  transport.send(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

void RpcConnection::sendResult(const json &id, json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void RpcConnection::sendError(const json &id, const RpcError &error) {
  send({{"jsonrpc", "2.0"},
        {"id", id},
        {"error",
         {{"code", static_cast<int>(error.code)}, {"message", error.message}}}});
}

void RpcConnection::notify(const std::string &method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void RpcConnection::call(const std::string &method, json params,
                         ResponseHandler onResponse) {
  std::string id;
  {
    std::lock_guard<std::mutex> lock(mutex);
    id = "accy-" + std::to_string(nextCallId++);
    awaitingResponse[json(id).dump()] = std::move(onResponse);
  }
  send({{"jsonrpc", "2.0"},
        {"id", id},
        {"method", method},
        {"params", std::move(params)}});
}

void RpcConnection::finish(const std::string &idKey) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    inFlight.erase(idKey);
  }
  answered.notify_all();
}

bool RpcConnection::handle(FramedMessage message) {
  if (!message.ok()) {
    sendError(nullptr, {ErrorCode::ParseError, message.error});
    return !stopped;
  }
  json value = json::parse(message.body, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    sendError(nullptr, {ErrorCode::ParseError, "the message is not JSON"});
    return !stopped;
  }
  if (!value.is_object()) {
    sendError(nullptr, {ErrorCode::InvalidRequest,
                        "a JSON-RPC message must be an object"});
    return !stopped;
  }
  auto id = value.find("id");
  bool hasId = id != value.end();
  if (hasId && !id->is_string() && !id->is_number_integer() && !id->is_null()) {
    sendError(nullptr, {ErrorCode::InvalidRequest,
                        "the id must be a string or an integer"});
    return !stopped;
  }
  auto method = value.find("method");
  if (method == value.end()) {
    if (hasId && (value.contains("result") || value.contains("error")))
      handleResponse(value);
    else
      sendError(hasId ? *id : json(nullptr),
                {ErrorCode::InvalidRequest, "a message without a method"});
    return !stopped;
  }
  auto version = value.find("jsonrpc");
  if (!method->is_string() || version == value.end() || *version != "2.0") {
    if (hasId)
      sendError(*id, {ErrorCode::InvalidRequest,
                      "not a JSON-RPC 2.0 request (jsonrpc must be \"2.0\" "
                      "and method a string)"});
    return !stopped;
  }
  json params = value.value("params", json(nullptr));
  if (!params.is_null() && !params.is_object() && !params.is_array()) {
    if (hasId)
      sendError(*id, {ErrorCode::InvalidRequest,
                      "params must be an object or an array"});
    return !stopped;
  }
  const std::string &name = method->get_ref<const std::string &>();
  if (hasId) {
    dispatchRequest(*id, name, params);
    return !stopped;
  }
  if (name == "$/cancelRequest") {
    cancel(params);
    return !stopped;
  }
  auto handler = notificationHandlers.find(name);
  if (handler != notificationHandlers.end()) {
    handler->second(params);
  }
  // Unknown notifications (including every other "$/" one) are ignored, as
  // the specification asks.
  return !stopped;
}

void RpcConnection::dispatchRequest(const json &id, const std::string &method,
                                    const json &params) {
  auto handler = requestHandlers.find(method);
  if (handler == requestHandlers.end()) {
    sendError(id, {ErrorCode::MethodNotFound, "unknown method '" + method + "'"});
    return;
  }
  auto state = std::make_shared<Reply::State>();
  state->connection = this;
  state->id = id;
  state->idKey = id.dump();
  state->cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> lock(mutex);
    inFlight[state->idKey] = state->cancelled;
  }
  std::string idKey = state->idKey;
  // Handlers decode their params without exceptions (Params.h) and answer
  // InvalidParams themselves.
  handler->second(params, Reply(std::move(state)));
  if (inOrder) {
    std::unique_lock<std::mutex> lock(mutex);
    answered.wait(lock, [&] { return !inFlight.count(idKey); });
  }
}

void RpcConnection::handleResponse(const json &message) {
  ResponseHandler handler;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = awaitingResponse.find(message["id"].dump());
    if (it == awaitingResponse.end())
      return;
    handler = std::move(it->second);
    awaitingResponse.erase(it);
  }
  auto error = message.find("error");
  if (error != message.end() && error->is_object()) {
    auto code = error->find("code");
    auto text = error->find("message");
    RpcError e{code != error->end() && code->is_number_integer()
                   ? static_cast<ErrorCode>(code->get<int>())
                   : ErrorCode::InternalError,
               text != error->end() && text->is_string() ? text->get<std::string>()
                                                         : ""};
    handler(nullptr, &e);
    return;
  }
  handler(message.value("result", json(nullptr)), nullptr);
}

void RpcConnection::cancel(const json &params) {
  if (!params.is_object() || !params.contains("id"))
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = inFlight.find(params["id"].dump());
  if (it != inFlight.end())
    it->second->store(true);
}
