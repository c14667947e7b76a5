#include "models/ddr/ddr_energy.h"

#include <algorithm>

#include "models/ddr/controller/ddr_device_timing.h"

namespace socsim {

DdrEnergy& DdrEnergy::operator+=(const DdrEnergy& o) {
  activate_pj += o.activate_pj;
  read_pj += o.read_pj;
  write_pj += o.write_pj;
  refresh_pj += o.refresh_pj;
  background_pj += o.background_pj;
  return *this;
}

DdrEnergyModel::DdrEnergyModel(const DdrConfig& config)
    : enabled_(config.model == DdrModelKind::kJedec && config.energy.enabled()),
      tck_ns_(config.tck_ps / 1000.0) {
  if (!enabled_) return;
  const DdrTimingParams& t = config.timing;
  const double d = config.energy.devices;
  const double burst = config.geometry.burst_cycles() * tck_ns_;
  const double rc = t.t_rc * tck_ns_, ras = t.t_ras * tck_ns_;
  double refresh_ab = 0, refresh_pb = 0;
  bool pb_from_currents = true;
  for (const DdrPowerRail& r : config.energy.rails) {
    const double dv = d * r.voltage;  // mA x V = mW; x ns = pJ
    activate_pj_ += dv * (r.idd0 * rc - r.idd3n * ras - r.idd2n * (rc - ras));
    read_pj_ += dv * (r.idd4r - r.idd3n) * burst;
    write_pj_ += dv * (r.idd4w - r.idd3n) * burst;
    refresh_ab += dv * (r.idd5b - r.idd3n) * t.t_rfc * tck_ns_;
    if (r.idd5pb >= 0) {
      refresh_pb += dv * (r.idd5pb - r.idd3n) * t.t_rfc_pb * tck_ns_;
    } else {
      pb_from_currents = false;
    }
    active_mw_ += dv * r.idd3n;
    precharge_mw_ += dv * r.idd2n;
  }
  refresh_pj_ = refresh_ab;
  bank_refresh_pj_ = pb_from_currents ? refresh_pb : refresh_ab / config.geometry.banks_per_rank();
}

DdrEnergy DdrEnergyModel::energy(const DdrRankActivity& a, uint64_t span_cycles) const {
  DdrEnergy e;
  if (!enabled_) return e;
  e.activate_pj = a.activates * activate_pj_;
  e.read_pj = a.reads * read_pj_;
  e.write_pj = a.writes * write_pj_;
  e.refresh_pj = a.refreshes * refresh_pj_ + a.bank_refreshes * bank_refresh_pj_;
  const uint64_t active = std::min(a.active_cycles, span_cycles);
  e.background_pj = (active * active_mw_ + (span_cycles - active) * precharge_mw_) * tck_ns_;
  return e;
}

}  // namespace socsim
