#include "platform/report/run_record.h"

#include <openssl/evp.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>

#include "platform/run_options.h"
#include "platform/version.h"

namespace socsim {

namespace {

// {path, bytes, sha256} of an input file; null when the option was not given.
nlohmann::json input_file(const std::string& path) {
  if (path.empty()) return nullptr;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const auto size = in ? static_cast<long long>(in.tellg()) : -1;
  return {{"path", path},
          {"bytes", size >= 0 ? nlohmann::json(size) : nlohmann::json()},
          {"sha256", file_sha256(path)}};
}

std::string utc_iso8601(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return "";
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buffer, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return "";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) return "";
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

RunRecord::RunRecord(const RunOptions& options)
    : options_(options),
      started_(std::chrono::system_clock::now()),
      steady_started_(std::chrono::steady_clock::now()) {}

nlohmann::json RunRecord::to_json() const {
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_started_).count();
  return {
      {"command_line", options_.command_line},
      {"inputs",
       {{"firmware", input_file(options_.firmware_path)},
        {"model", input_file(options_.model_path)},
        {"input", input_file(options_.input_path)},
        {"config", input_file(options_.config_path)}}},
      {"firmware_args", options_.firmware_args},
      {"tool",
       {{"name", "socsim"},
        {"version", socsim_version()},
        {"git_describe", socsim_git_describe()}}},
      {"host", {{"started_utc", utc_iso8601(started_)}, {"wall_seconds", wall}}},
  };
}

}  // namespace socsim
