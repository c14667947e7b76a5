#include "platform/debug_tools.h"

#include <cerrno>
#include <cstring>
#include <iostream>

#include "models/cpu/debug/commit_log.h"
#include "models/cpu/debug/gdb_session.h"
#include "models/cpu/debug/gdb_transport.h"
#include "platform/soc.h"

namespace po = boost::program_options;

namespace socsim {

void add_debug_options(po::options_description& opts, DebugOptions& options) {
  opts.add_options()(
      "gdb", po::value(&options.gdb_port),
      "serve GDB's remote protocol on 127.0.0.1:PORT and wait for it before the first "
      "instruction (target remote :PORT; docs/debugging.md)")(
      "trace-instr", po::value(&options.trace_instr),
      "write every retired instruction to FILE in Spike's commit-log format, with its cycle");
}

DebugTools::DebugTools(const DebugOptions& options, Soc& soc) {
  CpuModel& cpu = soc.cpu();
  const bool wanted = options.gdb_port >= 0 || !options.trace_instr.empty();
  if (wanted && !cpu.has_retire_trace()) {
    throw ConfigError(std::string("--gdb and --trace-instr need a retire trace: the rtl CPU "
                                  "model of this build is the ") +
                      cpu.description() + ", which reports no retired instructions");
  }
  if (!options.trace_instr.empty()) {
    trace_ = std::fopen(options.trace_instr.c_str(), "w");
    if (trace_ == nullptr) {
      throw ConfigError("--trace-instr " + options.trace_instr + ": cannot write: " +
                        std::strerror(errno));
    }
    commit_log_ = std::make_unique<CommitLog>(trace_);
    cpu.add_retire_observer(commit_log_.get());
  }
  if (options.gdb_port >= 0) {
    if (options.gdb_port > 65535) {
      throw ConfigError("--gdb " + std::to_string(options.gdb_port) + ": not a TCP port");
    }
    transport_ = std::make_unique<TcpGdbTransport>();
    const std::string error = transport_->listen(static_cast<uint16_t>(options.gdb_port));
    if (!error.empty()) throw ConfigError("--gdb: " + error);
    std::cerr << "socsim: waiting for GDB on 127.0.0.1:" << transport_->port()
              << " (target remote :" << transport_->port() << ")" << std::endl;
    const std::string accepted = transport_->accept();
    if (!accepted.empty()) throw ConfigError("--gdb: " + accepted);
    GdbMemory memory{
        [&soc](uint32_t addr, uint8_t* data, uint32_t size) {
          return soc.read_memory(addr, data, size);
        },
        [&soc](uint32_t addr, const uint8_t* data, uint32_t size) {
          return soc.write_memory(addr, data, size);
        }};
    gdb_ = std::make_unique<GdbSession>(cpu, *transport_, std::move(memory), soc.control(),
                                        soc.config().cpu.boot_addr);
    cpu.add_retire_observer(gdb_.get());
    gdb_->start();
  }
}

DebugTools::~DebugTools() {
  if (trace_ != nullptr) std::fclose(trace_);
}

void DebugTools::end_of_run(const SimControl& control) {
  if (gdb_) gdb_->finish(control);
  if (trace_ != nullptr) std::fflush(trace_);
}

}  // namespace socsim
