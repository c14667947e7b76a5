// rv_core_sim: rv_core for cycle-stepped C++ drivers (models/cpu/rtl/rtl_core.h).
//
// The driver gives the bus inputs of a cycle (grants, rvalid/rdata) and the interrupt lines
// before the clock edge that starts that cycle; they are held in flops for the cycle. The core
// sees the same signals in the same cycles as when driven directly, but one clock edge now
// evaluates a whole cycle: no combinational logic depends on a top-level input, so the
// simulator never re-evaluates the core when the inputs change. The only restriction is that
// a grant cannot depend on the request of the same cycle (OBI allows a grant without a
// request).
module rv_core_sim #(
  parameter int unsigned NUM_MHPMCOUNTERS = 1,
  parameter int unsigned FPU              = 0   // 1: with the FPU (fpu_i enables it)
) (
`include "rv_core_sim_ports.svh"
);

`include "rv_core_sim_inputs.svh"

  rv_core #(
    .NUM_MHPMCOUNTERS (NUM_MHPMCOUNTERS),
    .FPU              (FPU)
  ) u_core (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .pulp_clock_en_i     (1'b0),
    .scan_cg_en_i        (1'b0),
    .boot_addr_i         (boot_addr_i),
    .mtvec_addr_i        (mtvec_addr_i),
    .dm_halt_addr_i      (dm_halt_addr_i),
    .hart_id_i           (hart_id_i),
    .dm_exception_addr_i (dm_exception_addr_i),
    .fpu_i               (fpu_i),
    .fpu_addmul_lat_i    (fpu_addmul_lat_i),
    .fpu_others_lat_i    (fpu_others_lat_i),
    .fpu_zfinx_i         (fpu_zfinx_i),
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
    .core_sleep_o        (core_sleep_o),
    .rvfi_valid_o        (rvfi_valid_o),
    .rvfi_pc_o           (rvfi_pc_o),
    .rvfi_insn_o         (rvfi_insn_o),
    .rvfi_next_pc_o      (rvfi_next_pc_o),
    .rvfi_rd_o           (rvfi_rd_o),
    .rvfi_rd_value_o     (rvfi_rd_value_o),
    .rvfi_mem_valid_o    (rvfi_mem_valid_o),
    .rvfi_mem_write_o    (rvfi_mem_write_o),
    .rvfi_mem_size_o     (rvfi_mem_size_o),
    .rvfi_mem_addr_o     (rvfi_mem_addr_o),
    .rvfi_mem_data_o     (rvfi_mem_data_o),
    .rvfi_trap_o         (rvfi_trap_o),
    .rvfi_trap_cause_o   (rvfi_trap_cause_o),
    .rvfi_intr_o         (rvfi_intr_o),
    .rvfi_intr_cause_o   (rvfi_intr_cause_o),
    .rvfi_br_valid_o     (rvfi_br_valid_o),
    .rvfi_br_pc_o        (rvfi_br_pc_o),
    .rvfi_br_insn_o      (rvfi_br_insn_o),
    .rvfi_br_next_pc_o   (rvfi_br_next_pc_o),
    .rvfi_br_intr_o      (rvfi_br_intr_o),
    .rvfi_br_intr_cause_o(rvfi_br_intr_cause_o)
  );

endmodule
