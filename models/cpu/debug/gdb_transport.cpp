#include "models/cpu/debug/gdb_transport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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
  do {
    fd_ = ::accept(listen_fd_, nullptr, nullptr);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) return std::string("accept: ") + std::strerror(errno);
  const int one = 1;
  // Packets are small and answered one at a time: send each at once.
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::close(listen_fd_);
  listen_fd_ = -1;
  return "";
}

bool TcpGdbTransport::read_byte(char* byte) {
  if (fd_ < 0) return false;
  for (;;) {
    const ssize_t n = ::recv(fd_, byte, 1, 0);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    ::close(fd_);
    fd_ = -1;
    return false;
  }
}

bool TcpGdbTransport::poll_byte(char* byte) {
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) != 1) return false;
  return read_byte(byte);
}

bool TcpGdbTransport::write(const std::string& bytes) {
  size_t done = 0;
  while (fd_ >= 0 && done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd_);
      fd_ = -1;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return fd_ >= 0;
}

}  // namespace socsim
