//===- Transport.cpp - Bytes in and out of the server ---------------------===//
//
// Standalone Asio, used synchronously: the I/O thread blocks in read_some,
// and writers serialize on a mutex. Every call takes an error_code, so no
// Asio exception is ever thrown.
//
//===----------------------------------------------------------------------===//

#include "Transport.h"

#include <asio.hpp>

#include <cstdio>
#include <mutex>
#include <type_traits>
#include <unistd.h>

using namespace accy::lsp;

Transport::~Transport() = default;

namespace {

/// A transport over any Asio stream pair: `In` is read, `Out` written.
template <typename In, typename Out>
class StreamTransport final : public Transport {
public:
  /// `ownedOut` is null when `in` is also the output (a socket).
  StreamTransport(std::unique_ptr<asio::io_context> io, std::unique_ptr<In> in,
                  std::unique_ptr<Out> ownedOut)
      : io(std::move(io)), in(std::move(in)), ownedOut(std::move(ownedOut)) {
    if constexpr (std::is_same_v<In, Out>)
      out = this->ownedOut ? this->ownedOut.get() : this->in.get();
    else
      out = this->ownedOut.get();
  }

  void run(const std::function<bool(FramedMessage)> &onMessage) override {
    char chunk[64 * 1024];
    for (;;) {
      asio::error_code ec;
      size_t n = in->read_some(asio::buffer(chunk), ec);
      if (ec && n == 0)
        return; // End of stream or a broken connection.
      framer.feed(std::string_view(chunk, n));
      while (std::optional<FramedMessage> message = framer.next())
        if (!onMessage(std::move(*message)))
          return;
    }
  }

  bool send(std::string_view body) override {
    std::string framed = MessageFramer::frame(body);
    std::lock_guard<std::mutex> lock(writeMutex);
    asio::error_code ec;
    asio::write(*out, asio::buffer(framed), ec);
    return !ec;
  }

private:
  // The streams deregister from the io_context when destroyed: it goes last.
  std::unique_ptr<asio::io_context> io;
  std::unique_ptr<In> in;
  std::unique_ptr<Out> ownedOut;
  Out *out = nullptr;
  std::mutex writeMutex;
  MessageFramer framer;
};

} // namespace

std::unique_ptr<Transport> accy::lsp::createStdioTransport() {
  using Descriptor = asio::posix::stream_descriptor;
  auto io = std::make_unique<asio::io_context>();
  auto in = std::make_unique<Descriptor>(*io, ::dup(STDIN_FILENO));
  auto out = std::make_unique<Descriptor>(*io, ::dup(STDOUT_FILENO));
  // Anything else printed to stdout (an LLVM message, a stray printf)
  // would corrupt the framing: send it to stderr instead.
  std::fflush(stdout);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return std::make_unique<StreamTransport<Descriptor, Descriptor>>(
      std::move(io), std::move(in), std::move(out));
}

std::unique_ptr<Transport>
accy::lsp::createLoopbackTransport(uint16_t port, std::string &error) {
  using asio::ip::tcp;
  auto io = std::make_unique<asio::io_context>();
  asio::error_code ec;
  tcp::acceptor acceptor(*io);
  tcp::endpoint endpoint(asio::ip::address_v4::loopback(), port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec)
    acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec)
    acceptor.bind(endpoint, ec);
  if (!ec)
    acceptor.listen(1, ec);
  if (ec) {
    error = "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
            ec.message();
    return nullptr;
  }
  std::fprintf(stderr, "accy-lsp: listening on 127.0.0.1:%u\n",
               static_cast<unsigned>(acceptor.local_endpoint(ec).port()));
  std::fflush(stderr);
  auto socket = std::make_unique<tcp::socket>(*io);
  acceptor.accept(*socket, ec);
  if (ec) {
    error = "accepting a connection failed: " + ec.message();
    return nullptr;
  }
  // The acceptor closes here: the server serves this one client.
  return std::make_unique<StreamTransport<tcp::socket, tcp::socket>>(
      std::move(io), std::move(socket), nullptr);
}
