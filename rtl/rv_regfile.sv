// rv_regfile: 32 x 32-bit registers, three combinational read ports and two write ports: port A
// from EX (ALU, multiplier, divider, CSR, link, F results) and port B from WB (loads). ZERO_R0 = 1
// (the integer file): x0 reads 0 and is never written. ZERO_R0 = 0 (f0..f31, the FPU's file,
// only in the core with its FPU): register 0 is a register like any other, and a simultaneous
// write by both ports (an F operation writing the destination of the older flw in WB) lets port
// A, the younger instruction's, win.
// A simultaneous write to the same register by both ports happens only with the FPU: the ID
// stage stalls an instruction that would write the destination of a load still in EX, but not
// an F operation with an x destination (as in the CV32E40P, whose APU results bypass that
// check); the EX write is the younger instruction's and takes precedence.
module rv_regfile #(
  parameter bit ZERO_R0 = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [4:0]  raddr_a_i,
  output logic [31:0] rdata_a_o,
  input  logic [4:0]  raddr_b_i,
  output logic [31:0] rdata_b_o,
  input  logic [4:0]  raddr_c_i,  // third read port: rs3 of a Zfinx fused operation (FPU only)
  output logic [31:0] rdata_c_o,
  input  logic        we_a_i,     // EX write
  input  logic [4:0]  waddr_a_i,
  input  logic [31:0] wdata_a_i,
  input  logic        we_b_i,     // WB (load) write
  input  logic [4:0]  waddr_b_i,
  input  logic [31:0] wdata_b_i,
  input  logic        a_apu_i     // port A writes an F operation's result (FPU only)
);

  `include "rv_assert.svh"

  // Public to the simulator, which reads it, and writes it while the core is halted (rv_core.sv:
  // the debugger's halt). Read-only to Verilator's scheduling (public_flat_rd), so no logic is
  // re-evaluated for outside changes: nothing reads the registers while the core is halted.
  logic [31:0] regs_q [32] /*verilator public_flat_rd*/;

  assign rdata_a_o = regs_q[raddr_a_i];
  assign rdata_b_o = regs_q[raddr_b_i];
  assign rdata_c_o = regs_q[raddr_c_i];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32; i++) regs_q[i] <= '0;
    end else begin
      if (we_b_i && (!ZERO_R0 || waddr_b_i != 5'd0)) regs_q[waddr_b_i] <= wdata_b_i;
      if (we_a_i && (!ZERO_R0 || waddr_a_i != 5'd0)) regs_q[waddr_a_i] <= wdata_a_i;
    end
  end

  `RV_ASSERT(RegfileNoWriteConflict,
             !(ZERO_R0 && we_a_i && we_b_i && waddr_a_i == waddr_b_i && waddr_a_i != 5'd0 &&
               !a_apu_i))

endmodule
