#include "platform/report/report_directory.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace socsim {

void ReportDirectory::write(const std::string& name,
                            const std::function<void(std::ostream&)>& writer) {
  if (!enabled()) return;
  std::error_code ec;
  std::filesystem::create_directories(path_, ec);
  const std::string file_path = path_ + "/" + name;
  std::ofstream file(file_path);
  if (file) writer(file);
  if (file) file.flush();
  if (!file) {
    std::cerr << "socsim: error: cannot write " << file_path << "\n";
    ok_ = false;
  }
}

void ReportDirectory::write_json(const std::string& name, const nlohmann::json& value) {
  write(name, [&](std::ostream& out) { out << value.dump(2) << "\n"; });
}

}  // namespace socsim
