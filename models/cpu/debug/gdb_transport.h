// The byte stream between the GDB stub and a GDB client. The protocol core (GdbServer) sees
// only this interface, so its tests feed it scripted bytes; the simulator gives it a TCP
// connection (TcpGdbTransport).
#pragma once

#include <cstdint>
#include <string>

namespace socsim {

class GdbTransport {
 public:
  virtual ~GdbTransport() = default;
  /// Blocks until a byte arrives. False when the connection is closed.
  virtual bool read_byte(char* byte) = 0;
  /// A byte if one has arrived, without blocking. False when none is waiting (or closed).
  virtual bool poll_byte(char* byte) = 0;
  /// Sends `bytes`. False when the connection is closed.
  virtual bool write(const std::string& bytes) = 0;
};

/// Listens on 127.0.0.1:`port` and accepts one connection (accept() blocks).
class TcpGdbTransport final : public GdbTransport {
 public:
  TcpGdbTransport() = default;
  ~TcpGdbTransport() override;
  TcpGdbTransport(const TcpGdbTransport&) = delete;
  TcpGdbTransport& operator=(const TcpGdbTransport&) = delete;

  /// Binds and listens; "" on success, otherwise what failed (port in use, ...).
  std::string listen(uint16_t port);
  /// The port listened on (the one given, or the system's choice for port 0).
  uint16_t port() const { return port_; }
  /// Waits for the client. "" on success, otherwise what failed.
  std::string accept();

  bool read_byte(char* byte) override;
  bool poll_byte(char* byte) override;
  bool write(const std::string& bytes) override;

 private:
  int listen_fd_ = -1;
  int fd_ = -1;
  uint16_t port_ = 0;
};

}  // namespace socsim
