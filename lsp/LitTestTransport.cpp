//===- LitTestTransport.cpp - Delimited messages for FileCheck tests ------===//
//
// As mlir-lsp-server's -lit-test: the input holds JSON-RPC messages without
// headers, separated by lines `// -----`; other lines starting with `//`
// (RUN and CHECK lines) are dropped. Output is framed as usual, with each
// body pretty-printed (keys sorted) so a test can match it line by line.
//
//===----------------------------------------------------------------------===//

#include "Transport.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <unistd.h>

using namespace accy::lsp;

namespace {

class LitTestTransport final : public Transport {
public:
  explicit LitTestTransport(FILE *out) : out(out) {}
  ~LitTestTransport() override { std::fclose(out); }

  void run(const std::function<bool(FramedMessage)> &onMessage) override {
    std::string line, body;
    auto flush = [&] {
      bool keepGoing = true;
      if (body.find_first_not_of(" \t\r\n") != std::string::npos)
        keepGoing = onMessage(FramedMessage{body, ""});
      body.clear();
      return keepGoing;
    };
    while (std::getline(std::cin, line)) {
      std::string_view trimmed(line);
      trimmed.remove_prefix(std::min(trimmed.find_first_not_of(" \t"),
                                     trimmed.size()));
      if (trimmed.substr(0, 8) == "// -----") {
        if (!flush())
          return;
        continue;
      }
      if (trimmed.substr(0, 2) == "//")
        continue;
      body += line + "\n";
    }
    flush();
  }

  bool send(std::string_view body) override {
    nlohmann::json parsed =
        nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    std::string text =
        parsed.is_discarded()
            ? std::string(body)
            : parsed.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string framed = MessageFramer::frame(text) + "\n";
    std::lock_guard<std::mutex> lock(writeMutex);
    bool ok = std::fwrite(framed.data(), 1, framed.size(), out) == framed.size();
    return std::fflush(out) == 0 && ok;
  }

private:
  FILE *out;
  std::mutex writeMutex;
};

} // namespace

std::unique_ptr<Transport> accy::lsp::createLitTestTransport() {
  FILE *out = ::fdopen(::dup(STDOUT_FILENO), "w");
  // As with stdio: nothing else may write into the message stream.
  std::fflush(stdout);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return std::make_unique<LitTestTransport>(out);
}
