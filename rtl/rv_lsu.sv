// rv_lsu: load/store unit. Requests are issued from EX on the OBI data port; responses arrive
// in WB. A misaligned access (a word at an unaligned address, a halfword crossing a word
// boundary) becomes two transactions, lower address first, and holds EX for 2 cycles; the
// load result is assembled from both responses. Byte enables are exact, store data is
// rotated into its byte lanes.
//
// Up to two transactions are outstanding (see Request below), so zero-wait memory sustains one
// access per cycle and a slow response does not delay the next request.
module rv_lsu (
  input  logic        clk_i,
  input  logic        rst_ni,
  // EX
  input  logic        active_i,     // a load or store is in EX
  input  logic        we_i,
  input  logic [1:0]  size_i,       // 0 byte, 1 halfword, 2 word
  input  logic        unsigned_i,
  input  logic [31:0] addr_i,       // byte address
  input  logic [31:0] wdata_i,      // store data (unaligned, in the low bytes)
  input  logic        ex_advance_i, // EX hands its instruction on
  output logic        ex_done_o,    // the last transaction is granted this cycle
  output logic        split_o,      // EX holds a misaligned access (two transactions)
  // WB
  output logic        resp_final_o, // the last response of the access in WB arrives
  output logic        busy_o,       // a request is made or outstanding
  output logic [31:0] load_value_o, // sign- or zero-extended load result
  output logic [31:0] load_raw_o,   // loaded bytes, unextended
  // OBI data port
  output logic        data_req_o,
  input  logic        data_gnt_i,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  input  logic        data_rvalid_i,
  input  logic [31:0] data_rdata_i
);

  `include "rv_assert.svh"

  // ---------------------------------------------------------------------------------------------
  // Request
  // ---------------------------------------------------------------------------------------------
  // As in the CV32E40P, up to two transactions are outstanding: WB's, and the one EX issues
  // without waiting for WB's response. A phase (the access, or each half of a misaligned one)
  // is done, and leaves EX, when
  //   no transaction is outstanding:  its request is granted;
  //   one is outstanding (WB's):      its request is granted and WB's response arrives;
  //   two are (WB's and its own):     WB's response arrives.
  logic        phase_d, phase_q;  // 1: the second transaction of a misaligned access
  logic [1:0]  cnt_d, cnt_q;      // outstanding transactions
  logic [3:0]  size_mask;
  logic [7:0]  be8;
  logic        split, last, granted, phase_done;
  logic [63:0] wdata2;

  always_comb begin
    unique case (size_i)
      2'd0:    size_mask = 4'b0001;
      2'd1:    size_mask = 4'b0011;
      default: size_mask = 4'b1111;
    endcase
  end

  assign be8     = {4'b0, size_mask} << addr_i[1:0];
  assign split   = |be8[7:4];
  assign last    = !split || phase_q;
  assign wdata2  = {wdata_i, wdata_i} >> (6'd32 - {1'b0, addr_i[1:0], 3'b0});
  assign granted = data_req_o && data_gnt_i;

  assign data_req_o   = active_i && (cnt_q != 2'd2);
  assign data_we_o    = we_i;
  assign data_addr_o  = {addr_i[31:2] + {29'b0, phase_q}, 2'b00};
  assign data_be_o    = phase_q ? be8[7:4] : be8[3:0];
  assign data_wdata_o = wdata2[31:0];

  always_comb begin
    unique case (cnt_q)
      2'd0:    phase_done = granted;
      2'd1:    phase_done = granted && data_rvalid_i;
      default: phase_done = data_rvalid_i;
    endcase
  end
  assign ex_done_o = active_i && phase_done && last;
  assign split_o   = active_i && split;
  assign busy_o    = data_req_o || (cnt_q != 2'd0);

  always_comb begin
    phase_d = phase_q;
    if (ex_advance_i) begin
      phase_d = 1'b0;
    end else if (active_i && phase_done && !last) begin
      phase_d = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outstanding transactions (oldest in slot 0) and responses
  // ---------------------------------------------------------------------------------------------
  typedef struct packed {
    logic       last;      // the access's last transaction
    logic       split;     // a misaligned access (two transactions)
    logic [1:0] off;
    logic [1:0] size;
    logic       unsigned_load;
  } out_t;

  out_t        out_q [2];
  out_t        out_d [2];
  out_t        out_new, head;
  logic [31:0] lo_d, lo_q;

  assign out_new = '{last: last, split: split, off: addr_i[1:0], size: size_i,
                     unsigned_load: unsigned_i};
  assign head    = out_q[0];

  always_comb begin
    out_d = out_q;
    cnt_d = cnt_q;
    lo_d  = lo_q;
    if (data_rvalid_i) begin
      if (!head.last) lo_d = data_rdata_i;
      out_d[0] = out_q[1];
      cnt_d    = cnt_q - 2'd1;
    end
    if (granted) begin
      out_d[cnt_d[0]] = out_new;
      cnt_d           = cnt_d + 2'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q  <= 1'b0;
      cnt_q    <= '0;
      out_q[0] <= '0;
      out_q[1] <= '0;
      lo_q     <= '0;
    end else begin
      phase_q <= phase_d;
      cnt_q   <= cnt_d;
      out_q   <= out_d;
      lo_q    <= lo_d;
    end
  end

  logic [63:0] joined;
  logic [31:0] value;

  assign resp_final_o = data_rvalid_i && head.last;
  assign joined       = {data_rdata_i, head.split ? lo_q : data_rdata_i} >> {head.off, 3'b0};
  assign value        = joined[31:0];

  always_comb begin
    unique case (head.size)
      2'd0: begin
        load_raw_o   = {24'b0, value[7:0]};
        load_value_o = {{24{value[7] && !head.unsigned_load}}, value[7:0]};
      end
      2'd1: begin
        load_raw_o   = {16'b0, value[15:0]};
        load_value_o = {{16{value[15] && !head.unsigned_load}}, value[15:0]};
      end
      default: begin
        load_raw_o   = value;
        load_value_o = value;
      end
    endcase
  end

  logic unused_lsu;
  assign unused_lsu = ^{wdata2[63:32], joined[63:32]};

  `RV_ASSERT(LsuNoUnexpectedResponse, !data_rvalid_i || cnt_q != 2'd0)
  `RV_ASSERT(LsuAtMostTwoOutstanding, cnt_q != 2'd3)

endmodule
