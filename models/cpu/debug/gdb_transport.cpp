#include "models/cpu/debug/gdb_transport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "models/common/host_stop.h"

namespace socsim {

TcpGdbTransport::~TcpGdbTransport() {
  if (fd_ >= 0) ::close(fd_);
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::string TcpGdbTransport::listen(uint16_t port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) return std::string("socket: ") + std::strerror(errno);
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
  }
  if (::listen(listen_fd_, 1) != 0) return std::string("listen: ") + std::strerror(errno);
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  return "";
}

std::string TcpGdbTransport::accept() {
  // Blocks in poll(), waking every kAcceptPollMs only to look for a stop request.
  for (;;) {
    if (HostStop::requested()) {
      const int signal = HostStop::signal();
      return std::string("stopped by ") +
             (signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "the host") +
             " while waiting for GDB to connect";
    }
    pollfd p{listen_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, kAcceptPollMs);
    if (ready < 0 && errno != EINTR) return std::string("poll: ") + std::strerror(errno);
    if (ready <= 0) continue;
    fd_ = ::accept(listen_fd_, nullptr, nullptr);
    if (fd_ >= 0) break;
    if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
      return std::string("accept: ") + std::strerror(errno);
    }
  }
  const int one = 1;
  // Packets are small and answered one at a time: send each at once.
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::close(listen_fd_);
  listen_fd_ = -1;
  return "";
}

void TcpGdbTransport::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  begin_ = end_ = 0;
}

bool TcpGdbTransport::fill(int timeout_ms) {
  // poll() with a short timeout as well as EINTR: a signal that lands just before the
  // wait starts is still seen within kAcceptPollMs.
  for (;;) {
    // Once a stop was requested nothing more is waited for (the request itself is
    // forgotten when the simulation starts: HostStop::reset()).
    if (fd_ < 0 || stop_requested_) return false;
    if (HostStop::signal() != 0) {
      stop_requested_ = true;
      return false;
    }
    pollfd p{fd_, POLLIN, 0};
    const int wait = timeout_ms < 0 ? kAcceptPollMs : timeout_ms;
    const int ready = ::poll(&p, 1, wait);
    if (ready < 0 && errno != EINTR) {
      close();
      return false;
    }
    if (ready <= 0) {
      if (timeout_ms >= 0) return false;
      continue;
    }
    const ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, 0);
    if (n > 0) {
      begin_ = 0;
      end_ = static_cast<size_t>(n);
      return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    close();  // the client closed the connection, or it broke
    return false;
  }
}

bool TcpGdbTransport::read_byte(char* byte) {
  if (begin_ == end_ && !fill(-1)) return false;
  *byte = buffer_[begin_++];
  return true;
}

bool TcpGdbTransport::poll_byte(char* byte) {
  if (begin_ == end_ && !fill(0)) return false;
  *byte = buffer_[begin_++];
  return true;
}

bool TcpGdbTransport::write(const std::string& bytes) {
  size_t done = 0;
  while (fd_ >= 0 && done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close();
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return fd_ >= 0;
}

}  // namespace socsim
