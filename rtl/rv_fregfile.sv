// rv_fregfile: f0..f31 (the FPU's registers; f0 is a register like any other), three
// combinational read ports (rs1, rs2, rs3 of the fused multiply-adds) and two write ports:
// port A from EX (an F operation's result) and port B from WB (flw). Both may write one register
// in the same cycle (an F operation that writes the destination of the flw in WB, which is
// older): port A, the younger instruction's, takes precedence. Only in the core with its FPU.
module rv_fregfile (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [4:0]  raddr_a_i,
  output logic [31:0] rdata_a_o,
  input  logic [4:0]  raddr_b_i,
  output logic [31:0] rdata_b_o,
  input  logic [4:0]  raddr_c_i,
  output logic [31:0] rdata_c_o,
  input  logic        we_a_i,     // EX write (F result)
  input  logic [4:0]  waddr_a_i,
  input  logic [31:0] wdata_a_i,
  input  logic        we_b_i,     // WB write (flw)
  input  logic [4:0]  waddr_b_i,
  input  logic [31:0] wdata_b_i
);

  logic [31:0] regs_q [32];

  assign rdata_a_o = regs_q[raddr_a_i];
  assign rdata_b_o = regs_q[raddr_b_i];
  assign rdata_c_o = regs_q[raddr_c_i];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32; i++) regs_q[i] <= '0;
    end else begin
      if (we_b_i) regs_q[waddr_b_i] <= wdata_b_i;
      if (we_a_i) regs_q[waddr_a_i] <= wdata_a_i;
    end
  end

endmodule
