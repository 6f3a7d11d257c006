//===- Transport.h - Bytes in and out of the server -------------*- C++ -*-===//
//
// The transport owns the byte stream (stdio, or one TCP connection on the
// loopback interface) and the Content-Length framing; it hands complete
// message bodies, or framing errors, to its caller and knows nothing of
// JSON-RPC. Sending is safe from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_TRANSPORT_H
#define ACCY_LSP_TRANSPORT_H

#include "Framing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace accy::lsp {

class Transport {
public:
  virtual ~Transport();
  /// Reads until the stream ends or `onMessage` returns false.
  virtual void run(const std::function<bool(FramedMessage)> &onMessage) = 0;
  /// Frames and writes one message body; false when the stream is gone.
  virtual bool send(std::string_view body) = 0;
};

/// Reads stdin and writes stdout. Standard output is then redirected to
/// standard error, so that nothing else can corrupt the message stream.
std::unique_ptr<Transport> createStdioTransport();

/// Reads messages without headers from stdin, separated by `// -----`
/// lines (other `//` lines are comments), and writes framed, pretty-printed
/// messages to stdout: accy-lsp -lit-test, for FileCheck tests.
std::unique_ptr<Transport> createLitTestTransport();

/// Listens on 127.0.0.1:`port` (0 picks a free port), reports the port on
/// standard error, and serves the first connection. Null with `error` set
/// when the port cannot be bound.
std::unique_ptr<Transport> createLoopbackTransport(uint16_t port,
                                                   std::string &error);

} // namespace accy::lsp

#endif // ACCY_LSP_TRANSPORT_H
