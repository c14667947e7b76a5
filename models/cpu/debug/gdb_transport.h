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
  /// Blocks until a byte arrives. False when the connection is closed, or when the host
  /// asked the run to stop (then stop_requested() is true).
  virtual bool read_byte(char* byte) = 0;
  /// A byte if one has arrived, without blocking. False when none is waiting (or closed).
  virtual bool poll_byte(char* byte) = 0;
  /// Sends `bytes`. False when the connection is closed.
  virtual bool write(const std::string& bytes) = 0;
  /// Ends the connection (a client that broke the protocol).
  virtual void close() {}
  /// True once a read ended because the host asked the run to stop (SIGINT, SIGTERM).
  virtual bool stop_requested() const { return false; }
};

/// Listens on 127.0.0.1:`port` and accepts one connection.
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
  /// Waits for the client, blocked in poll() (no CPU time), until it connects or a stop is
  /// requested (HostStop: SIGINT, SIGTERM under HostStopSignals). "" on success, otherwise
  /// what failed or stopped the wait.
  std::string accept();
  /// How often the wait looks at HostStop.
  static constexpr int kAcceptPollMs = 100;

  /// Reads what has arrived into a buffer (not a byte per recv()). While it waits, a stop
  /// request (HostStop::signal(): SIGINT, SIGTERM under HostStopSignals) ends the read.
  bool read_byte(char* byte) override;
  bool poll_byte(char* byte) override;
  bool write(const std::string& bytes) override;
  void close() override;
  bool stop_requested() const override { return stop_requested_; }

 private:
  /// Waits up to `timeout_ms` (-1: until data, the end, or a stop request) and reads what
  /// has arrived. False when nothing was read.
  bool fill(int timeout_ms);

  int listen_fd_ = -1;
  int fd_ = -1;
  uint16_t port_ = 0;
  bool stop_requested_ = false;
  char buffer_[4096];
  size_t begin_ = 0, end_ = 0;  ///< the unread bytes of buffer_
};

}  // namespace socsim
