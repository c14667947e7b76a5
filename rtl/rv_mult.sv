// rv_mult: the EX-stage multiplier. mul completes in the cycle it enters EX (its result is
// forwarded to the next instruction without a stall); mulh, mulhsu and mulhu take 5 cycles,
// independent of the operands, as on the CV32E40P. The product is formed by one 64-bit
// multiplication (cheap in simulation); a sequencer holds the EX stage for the high-word
// variants.
module rv_mult (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                enable_i,  // a multiply is in EX
  input  rv_pkg::mul_op_e     op_i,
  input  logic [31:0]         a_i,
  input  logic [31:0]         b_i,
  input  logic                ex_advance_i, // the EX stage hands its instruction on
  output logic [31:0]         result_o,
  output logic                ready_o,    // result valid in this cycle
  output logic                late_o      // mulh*: past its first EX cycle (FPU timing)
);
  import rv_pkg::*;

  localparam logic [2:0] MULH_LAST_CYCLE = 3'd4;

  logic [2:0]         cnt_d, cnt_q;
  logic signed [63:0] a_ext, b_ext;
  logic [63:0]        product;

  // Operand extension: mulh signed x signed, mulhsu signed x unsigned, mulhu unsigned.
  assign a_ext   = (op_i == MD_MULHU) ? {32'b0, a_i} : {{32{a_i[31]}}, a_i};
  assign b_ext   = (op_i == MD_MULH) ? {{32{b_i[31]}}, b_i} : {32'b0, b_i};
  assign product = $unsigned(a_ext * b_ext);

  assign result_o = (op_i == MD_MUL) ? product[31:0] : product[63:32];
  assign ready_o  = (op_i == MD_MUL) || (cnt_q == MULH_LAST_CYCLE);
  assign late_o   = cnt_q != '0;

  always_comb begin
    cnt_d = cnt_q;
    if (ex_advance_i) begin
      cnt_d = '0;
    end else if (enable_i && op_i != MD_MUL && cnt_q != MULH_LAST_CYCLE) begin
      cnt_d = cnt_q + 3'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_d;
    end
  end

endmodule
