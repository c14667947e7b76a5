#include "models/common/host_stop.h"

#include <cstring>

namespace socsim {

namespace {

extern "C" void on_stop_signal(int signal) {
  HostStop::request_signal(signal);
  // A second signal takes the default action: the process ends at once.
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(signal, &dfl, nullptr);
}

}  // namespace

HostStopSignals::HostStopSignals() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

HostStopSignals::~HostStopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace socsim
