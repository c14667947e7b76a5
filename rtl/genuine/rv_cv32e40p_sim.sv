// rv_cv32e40p_sim: the OpenHW CV32E40P (cv32e40p_top from a user's checkout) behind the same
// ports as rv_core_sim, so the C++ wrappers (models/cpu/rtl) drive either core unchanged.
// Built only with the CMake option SOCSIM_CV32E40P_RTL=<checkout> (rtl/README.md).
//
// As in rv_core_sim, the bus inputs of a cycle are given before the clock edge that starts it
// and held in flops for the cycle. Configuration: COREV_PULP=0, COREV_CLUSTER=0 (RV32IMC +
// Zicsr + Zifencei, machine mode), and the FPU parameters as given (CMake options
// SOCSIM_CV32E40P_FPU, _FPU_ADDMUL_LAT, _FPU_OTHERS_LAT, _ZFINX; default 0: no FPU).
//
// The genuine top has no retire-trace port: the rvfi_* outputs are tied to zero, and the C++
// side knows (RtlCore::has_retire_trace(), rtl/README.md).
module rv_cv32e40p_sim #(
  parameter int unsigned NUM_MHPMCOUNTERS = 1,
  parameter int unsigned FPU              = 0,
  parameter int unsigned FPU_ADDMUL_LAT   = 0,
  parameter int unsigned FPU_OTHERS_LAT   = 0,
  parameter int unsigned ZFINX            = 0
) (
`include "rv_core_sim_ports.svh"
);

`include "rv_core_sim_inputs.svh"

  cv32e40p_top #(
    .COREV_PULP       (0),
    .COREV_CLUSTER    (0),
    .FPU              (FPU),
    .FPU_ADDMUL_LAT   (FPU_ADDMUL_LAT),
    .FPU_OTHERS_LAT   (FPU_OTHERS_LAT),
    .ZFINX            (ZFINX),
    .NUM_MHPMCOUNTERS (NUM_MHPMCOUNTERS)
  ) u_top (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .pulp_clock_en_i     (1'b0),
    .scan_cg_en_i        (1'b0),
    .boot_addr_i         (boot_addr_i),
    .mtvec_addr_i        (mtvec_addr_i),
    .dm_halt_addr_i      (dm_halt_addr_i),
    .hart_id_i           (hart_id_i),
    .dm_exception_addr_i (dm_exception_addr_i),
    .instr_req_o         (instr_req_o),
    .instr_gnt_i         (instr_gnt_q),
    .instr_rvalid_i      (instr_rvalid_q),
    .instr_addr_o        (instr_addr_o),
    .instr_rdata_i       (instr_rdata_q),
    .data_req_o          (data_req_o),
    .data_gnt_i          (data_gnt_q),
    .data_rvalid_i       (data_rvalid_q),
    .data_we_o           (data_we_o),
    .data_be_o           (data_be_o),
    .data_addr_o         (data_addr_o),
    .data_wdata_o        (data_wdata_o),
    .data_rdata_i        (data_rdata_q),
    .irq_i               (irq_q),
    .irq_ack_o           (irq_ack_o),
    .irq_id_o            (irq_id_o),
    .debug_req_i         (debug_req_q),
    .debug_havereset_o   (debug_havereset_o),
    .debug_running_o     (debug_running_o),
    .debug_halted_o      (debug_halted_o),
    .fetch_enable_i      (fetch_enable_q),
    .core_sleep_o        (core_sleep_o)
  );

  // No retire trace: the wrappers count cycles only.
  assign rvfi_valid_o      = 1'b0;
  assign rvfi_pc_o         = '0;
  assign rvfi_insn_o       = '0;
  assign rvfi_next_pc_o    = '0;
  assign rvfi_rd_o         = '0;
  assign rvfi_rd_value_o   = '0;
  assign rvfi_mem_valid_o  = 1'b0;
  assign rvfi_mem_write_o  = 1'b0;
  assign rvfi_mem_size_o   = '0;
  assign rvfi_mem_addr_o   = '0;
  assign rvfi_mem_data_o   = '0;
  assign rvfi_trap_o       = 1'b0;
  assign rvfi_trap_cause_o = '0;
  assign rvfi_intr_o       = 1'b0;
  assign rvfi_intr_cause_o = '0;
  assign rvfi_br_valid_o      = 1'b0;
  assign rvfi_br_pc_o         = '0;
  assign rvfi_br_insn_o       = '0;
  assign rvfi_br_next_pc_o    = '0;
  assign rvfi_br_intr_o       = 1'b0;
  assign rvfi_br_intr_cause_o = '0;

endmodule
