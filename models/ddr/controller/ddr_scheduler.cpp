#include "models/ddr/controller/ddr_scheduler.h"

#include "models/ddr/controller/fcfs_scheduler.h"
#include "models/ddr/controller/frfcfs_scheduler.h"

namespace socsim {

std::unique_ptr<DdrScheduler> make_ddr_scheduler(const DdrControllerConfig& config) {
  switch (config.scheduler) {
    case DdrSchedulerKind::kFcfs:
      return std::make_unique<FcfsScheduler>();
    case DdrSchedulerKind::kFrFcfs:
      return std::make_unique<FrFcfsScheduler>(config.bypass_cap);
  }
  return nullptr;
}

}  // namespace socsim
