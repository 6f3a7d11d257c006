//===- FuzzJsonRpc.cpp - libFuzzer target: accy-lsp framing and JSON-RPC --===//
//
// The bytes are a client's byte stream: a MessageFramer splits them (fed in
// chunks whose size the first byte picks, as reads from a pipe or socket
// would come) and an RpcConnection serves them with handlers that answer
// at once, later, never, after a cancellation, or throw nlohmann/json's
// type errors as real handlers do on malformed params; the server also
// sends requests of its own, whose responses the stream may carry. Every
// message the connection sends must be a JSON-RPC 2.0 object; nothing may
// crash, hang or leak.
//
//===----------------------------------------------------------------------===//

#include "Framing.h"
#include "JsonRpc.h"
#include "Transport.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace accy::lsp;

namespace {

class FuzzTransport final : public Transport {
public:
  FuzzTransport(std::string_view input, size_t chunk)
      : input(input), chunk(chunk) {}

  void run(const std::function<bool(FramedMessage)> &onMessage) override {
    MessageFramer framer;
    for (size_t at = 0; at < input.size(); at += chunk) {
      framer.feed(input.substr(at, chunk));
      while (auto message = framer.next())
        if (!onMessage(std::move(*message)))
          return;
    }
  }

  bool send(std::string_view body) override {
    // What the server writes must frame and parse back.
    MessageFramer framer;
    framer.feed(MessageFramer::frame(body));
    auto message = framer.next();
    if (!message || !message->ok() || message->body != body ||
        framer.next()) {
      std::fprintf(stderr, "the server's own message does not frame\n");
      std::abort();
    }
    json value = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!value.is_object() || value.value("jsonrpc", "") != "2.0") {
      std::fprintf(stderr, "the server sent a non-JSON-RPC message: %.*s\n",
                   static_cast<int>(body.size()), body.data());
      std::abort();
    }
    ++sent;
    return true;
  }

  size_t sent = 0;

private:
  std::string_view input;
  size_t chunk;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  // 0 -> everything at once, else chunks of 1..255 bytes.
  size_t chunk = data[0] ? data[0] : size;
  std::string_view stream(reinterpret_cast<const char *>(data) + 1, size - 1);
  FuzzTransport transport(stream, chunk);
  RpcConnection connection(transport);
  std::vector<Reply> later;

  connection.onRequest("initialize", [&](const json &params, Reply reply) {
    // Typed access throws json::type_error/out_of_range on bad params.
    (void)params.at("processId").get<int>();
    std::string root = params.value("rootUri", std::string());
    reply(json{{"capabilities", json::object()}, {"root", root}});
  });
  connection.onRequest("shutdown",
                       [&](const json &, Reply reply) { reply(nullptr); });
  connection.onRequest("textDocument/hover",
                       [&](const json &params, Reply reply) {
    (void)params.at("position").at("line").get<unsigned>();
    later.push_back(reply); // answered at the end, maybe after a cancel
  });
  connection.onRequest("accy/drop", [&](const json &, Reply) {
    // Never answered: the connection must answer InternalError itself.
  });
  connection.onRequest("accy/twice", [&](const json &params, Reply reply) {
    reply(params);
    reply(RpcError{ErrorCode::RequestFailed, "second answer is ignored"});
  });
  connection.onNotification("initialized", [&](const json &) {
    // A request of the server's own; the stream may answer "accy-0".
    connection.call("client/registerCapability", json::object(),
                    [](const json &, const RpcError *) {});
  });
  connection.onNotification("textDocument/didOpen", [&](const json &params) {
    (void)params.at("textDocument").at("text").get<std::string>();
  });
  connection.onNotification("exit", [&](const json &) { connection.stop(); });

  connection.run();
  for (Reply &reply : later)
    if (!reply.cancelled())
      reply(json{{"contents", "hover"}});
    else
      reply(RpcError{ErrorCode::RequestCancelled, "cancelled"});
  later.clear();
  return 0;
}
