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
  parameter int unsigned NUM_MHPMCOUNTERS = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // static configuration
  input  logic [31:0] boot_addr_i,
  input  logic [31:0] mtvec_addr_i,
  input  logic [31:0] dm_halt_addr_i,
  input  logic [31:0] hart_id_i,
  input  logic [31:0] dm_exception_addr_i,
  // inputs of the cycle that the next clock edge starts
  input  logic        instr_gnt_i,
  input  logic        instr_rvalid_i,
  input  logic [31:0] instr_rdata_i,
  input  logic        data_gnt_i,
  input  logic        data_rvalid_i,
  input  logic [31:0] data_rdata_i,
  input  logic [31:0] irq_i,
  input  logic        debug_req_i,
  input  logic        fetch_enable_i,
  // outputs of the current cycle (as rv_core)
  output logic        instr_req_o,
  output logic [31:0] instr_addr_o,
  output logic        data_req_o,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  output logic        irq_ack_o,
  output logic [4:0]  irq_id_o,
  output logic        debug_havereset_o,
  output logic        debug_running_o,
  output logic        debug_halted_o,
  output logic        core_sleep_o,
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_pc_o,
  output logic [31:0] rvfi_insn_o,
  output logic [31:0] rvfi_next_pc_o,
  output logic [4:0]  rvfi_rd_o,
  output logic [31:0] rvfi_rd_value_o,
  output logic        rvfi_mem_valid_o,
  output logic        rvfi_mem_write_o,
  output logic [2:0]  rvfi_mem_size_o,
  output logic [31:0] rvfi_mem_addr_o,
  output logic [31:0] rvfi_mem_data_o,
  output logic        rvfi_trap_o,
  output logic [31:0] rvfi_trap_cause_o,
  output logic        rvfi_intr_o,
  output logic [31:0] rvfi_intr_cause_o
);

  logic        instr_gnt_q, instr_rvalid_q, data_gnt_q, data_rvalid_q, debug_req_q;
  logic        fetch_enable_q;
  logic [31:0] instr_rdata_q, data_rdata_q, irq_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_gnt_q    <= 1'b0;
      instr_rvalid_q <= 1'b0;
      instr_rdata_q  <= '0;
      data_gnt_q     <= 1'b0;
      data_rvalid_q  <= 1'b0;
      data_rdata_q   <= '0;
      irq_q          <= '0;
      debug_req_q    <= 1'b0;
      fetch_enable_q <= 1'b0;
    end else begin
      instr_gnt_q    <= instr_gnt_i;
      instr_rvalid_q <= instr_rvalid_i;
      instr_rdata_q  <= instr_rdata_i;
      data_gnt_q     <= data_gnt_i;
      data_rvalid_q  <= data_rvalid_i;
      data_rdata_q   <= data_rdata_i;
      irq_q          <= irq_i;
      debug_req_q    <= debug_req_i;
      fetch_enable_q <= fetch_enable_i;
    end
  end

  rv_core #(
    .NUM_MHPMCOUNTERS (NUM_MHPMCOUNTERS)
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
    .rvfi_intr_cause_o   (rvfi_intr_cause_o)
  );

endmodule
