// rv_div: the iterative divider of the EX stage (div, divu, rem, remu).
//
// Timing follows the CV32E40P: an unsigned division, or a signed one with a non-negative
// divisor, takes 3 + clz(divisor) cycles (0x80000000 -> 3, 1 -> 34, 0 -> 35); a signed
// division with a negative divisor takes 2 + (number of leading ones of the divisor)
// (-1 -> 34, -3 -> 32, INT_MIN -> 3). The dividend never matters.
//
// Datapath: restoring division on magnitudes, one quotient bit per cycle, most significant
// first. The divisor is normalised by clz(|divisor|) so only the clz + 1 significant quotient
// bits are computed; the first of them in the cycle the instruction enters EX. Any cycles the
// timing rule leaves over are idle. Division by zero gives all ones and the dividend as
// remainder; INT_MIN / -1 gives INT_MIN and remainder 0 (RISC-V unprivileged spec, M chapter).
module rv_div (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            enable_i,     // a division is in EX
  input  rv_pkg::div_op_e op_i,
  input  logic [31:0]     a_i,          // dividend
  input  logic [31:0]     b_i,          // divisor
  input  logic            ex_advance_i, // the EX stage hands its instruction on
  output logic [31:0]     result_o,
  output logic            ready_o       // result valid in this cycle
);
  import rv_pkg::*;

  // Count of leading zeros (32 for zero), by halving steps.
  function automatic logic [5:0] clz32(logic [31:0] x);
    logic [31:0] v;
    logic [5:0]  n;
    v = x;
    n = 6'd0;
    if (v == 32'b0) return 6'd32;
    if (v[31:16] == 16'b0) begin n = n + 6'd16; v = v << 16; end
    if (v[31:24] == 8'b0)  begin n = n + 6'd8;  v = v << 8;  end
    if (v[31:28] == 4'b0)  begin n = n + 6'd4;  v = v << 4;  end
    if (v[31:30] == 2'b0)  begin n = n + 6'd2;  v = v << 2;  end
    if (!v[31])            n = n + 6'd1;
    return n;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Start (first EX cycle): magnitudes, normalisation, first quotient bit, cycle budget
  // ---------------------------------------------------------------------------------------------
  logic        is_signed, a_neg, b_neg;
  logic [31:0] a_mag, b_mag, b_norm, rem_first;
  logic [5:0]  lz, cycles;
  logic        bit_first;
  logic        start;

  assign start = enable_i && !busy_q;

  // Only evaluated in the start cycle (keeps the simulation cheap in all other cycles).
  always_comb begin
    is_signed = 1'b0;
    a_neg     = 1'b0;
    b_neg     = 1'b0;
    a_mag     = '0;
    b_mag     = '0;
    lz        = '0;
    b_norm    = '0;
    bit_first = 1'b0;
    rem_first = '0;
    cycles    = '0;
    if (start) begin
      is_signed = (op_i == MD_DIV) || (op_i == MD_REM);
      a_neg     = is_signed && a_i[31];
      b_neg     = is_signed && b_i[31];
      a_mag     = a_neg ? (32'd0 - a_i) : a_i;
      b_mag     = b_neg ? (32'd0 - b_i) : b_i;
      lz        = clz32(b_mag);
      b_norm    = b_mag << lz[4:0];
      bit_first = (b_mag != 0) && (a_mag >= b_norm);
      rem_first = bit_first ? a_mag - b_norm : a_mag;
      // 2 + leading ones of a negative divisor = 2 + clz(~divisor)
      cycles    = b_neg ? 6'd2 + clz32(~b_i) : 6'd3 + lz;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic        busy_d, busy_q;
  logic [5:0]  cnt_d, cnt_q;      // cycles left until the ready cycle
  logic [5:0]  iters_d, iters_q;  // quotient bits still to compute
  logic [31:0] rem_d, rem_q, quo_d, quo_q, dsh_d, dsh_q;
  logic        neg_quo_d, neg_quo_q, neg_rem_d, neg_rem_q, by_zero_d, by_zero_q;
  logic        want_rem_d, want_rem_q;
  logic [31:0] dividend_d, dividend_q;

  always_comb begin
    busy_d     = busy_q;
    cnt_d      = cnt_q;
    iters_d    = iters_q;
    rem_d      = rem_q;
    quo_d      = quo_q;
    dsh_d      = dsh_q;
    neg_quo_d  = neg_quo_q;
    neg_rem_d  = neg_rem_q;
    by_zero_d  = by_zero_q;
    want_rem_d = want_rem_q;
    dividend_d = dividend_q;

    if (ex_advance_i) begin
      busy_d = 1'b0;
    end else if (start) begin
      busy_d     = 1'b1;
      cnt_d      = cycles - 6'd2;
      iters_d    = (b_mag == 0) ? 6'd0 : lz;
      rem_d      = rem_first;
      quo_d      = {31'b0, bit_first};
      dsh_d      = b_norm >> 1;
      neg_quo_d  = a_neg ^ b_neg;
      neg_rem_d  = a_neg;
      by_zero_d  = (b_i == 0);
      want_rem_d = (op_i == MD_REM) || (op_i == MD_REMU);
      dividend_d = a_i;
    end else if (busy_q) begin
      if (cnt_q != 0) cnt_d = cnt_q - 6'd1;
      if (iters_q != 0) begin
        iters_d = iters_q - 6'd1;
        dsh_d   = dsh_q >> 1;
        if (rem_q >= dsh_q) begin
          rem_d = rem_q - dsh_q;
          quo_d = {quo_q[30:0], 1'b1};
        end else begin
          quo_d = {quo_q[30:0], 1'b0};
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      cnt_q      <= '0;
      iters_q    <= '0;
      rem_q      <= '0;
      quo_q      <= '0;
      dsh_q      <= '0;
      neg_quo_q  <= 1'b0;
      neg_rem_q  <= 1'b0;
      by_zero_q  <= 1'b0;
      want_rem_q <= 1'b0;
      dividend_q <= '0;
    end else begin
      busy_q     <= busy_d;
      cnt_q      <= cnt_d;
      iters_q    <= iters_d;
      rem_q      <= rem_d;
      quo_q      <= quo_d;
      dsh_q      <= dsh_d;
      neg_quo_q  <= neg_quo_d;
      neg_rem_q  <= neg_rem_d;
      by_zero_q  <= by_zero_d;
      want_rem_q <= want_rem_d;
      dividend_q <= dividend_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Result
  // ---------------------------------------------------------------------------------------------
  logic [31:0] quotient, remainder;

  assign quotient  = by_zero_q ? 32'hFFFF_FFFF : (neg_quo_q ? 32'd0 - quo_q : quo_q);
  assign remainder = by_zero_q ? dividend_q : (neg_rem_q ? 32'd0 - rem_q : rem_q);
  assign result_o  = want_rem_q ? remainder : quotient;
  assign ready_o   = busy_q && (cnt_q == 0) && (iters_q == 0);

endmodule
