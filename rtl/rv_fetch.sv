// rv_fetch: the IF stage. A prefetcher with a 2-word buffer on the OBI instruction port, an
// aligner that delivers one instruction (16 or 32 bits, at any halfword address) per cycle,
// and the RVC expander.
//
// Prefetching: a new word is requested whenever buffered words plus outstanding requests are
// fewer than 2 (the buffer count is taken as 0 in a redirect cycle, whose target word is
// requested in that very cycle). Responses of requests made before a redirect are dropped.
// A request that is not granted is held with a stable address until it is granted (OBI).
//
// Aligner: the upper halfword of a consumed word is kept in half_q. After a redirect to a
// halfword address the first word is always consumed into half_q; a 32-bit instruction
// there therefore needs the next word one cycle later (the CV32E40P's 1-cycle penalty for
// jumping to a 32-bit instruction at a halfword address).
module rv_fetch (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,            // fetching enabled
  input  logic        branch_i,         // redirect this cycle
  input  logic [31:0] branch_addr_i,    // redirect target (bit 0 ignored)
  // OBI instruction port
  output logic        instr_req_o,
  input  logic        instr_gnt_i,
  output logic [31:0] instr_addr_o,
  input  logic        instr_rvalid_i,
  input  logic [31:0] instr_rdata_i,
  // to the ID stage
  output logic        valid_o,          // an instruction is available
  output logic [31:0] raw_o,            // instruction as fetched (16 bits zero-extended)
  output logic [31:0] pc_o,             // its address (also the next pc when none is valid)
  output logic        busy_o,           // a request is made or outstanding
  input  logic        ready_i           // ID takes the instruction offered this cycle, if any
);

  `include "rv_assert.svh"

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic [31:0] fifo_q [2];
  logic [31:0] fifo_d [2];
  logic [1:0]  fifo_cnt_d, fifo_cnt_q;
  logic [1:0]  outstanding_d, outstanding_q;  // granted, response not yet seen
  logic [1:0]  discard_d, discard_q;          // oldest outstanding responses to drop
  logic [31:0] fetch_addr_d, fetch_addr_q;    // next word to request
  logic        pend_d, pend_q;                // a request waits for its grant
  logic [31:0] pend_addr_d, pend_addr_q;
  logic        pend_stale_d, pend_stale_q;    // ... and belongs to a flushed stream
  logic [31:0] pc_d, pc_q;
  logic [15:0] half_d, half_q;
  logic        half_valid_d, half_valid_q;

  // ---------------------------------------------------------------------------------------------
  // Available words: buffer entries followed by this cycle's live response
  // ---------------------------------------------------------------------------------------------
  logic        resp_live;
  logic        w0_valid;
  logic [31:0] w0;

  assign resp_live = instr_rvalid_i && (discard_q == 2'd0);
  assign w0_valid  = (fifo_cnt_q != 2'd0) || resp_live;
  assign w0        = (fifo_cnt_q != 2'd0) ? fifo_q[0] : instr_rdata_i;

  // ---------------------------------------------------------------------------------------------
  // Aligner
  // ---------------------------------------------------------------------------------------------
  logic        raw_valid, consume;
  logic [31:0] raw;

  always_comb begin
    raw_valid    = 1'b0;
    raw          = w0;
    consume      = 1'b0;
    pc_d         = pc_q;
    half_d       = half_q;
    half_valid_d = half_valid_q;

    if (!pc_q[1]) begin
      // word-aligned instruction
      raw_valid = w0_valid;
      raw       = (w0[1:0] == 2'b11) ? w0 : {16'b0, w0[15:0]};
      if (w0_valid && ready_i) begin
        consume = 1'b1;
        if (w0[1:0] == 2'b11) begin
          pc_d = pc_q + 32'd4;
        end else begin
          pc_d         = pc_q + 32'd2;
          half_d       = w0[31:16];
          half_valid_d = 1'b1;
        end
      end
    end else if (half_valid_q) begin
      if (half_q[1:0] != 2'b11) begin
        // The kept half is a whole instruction, but, as in the CV32E40P (whose IF hands an
        // instruction on only while the prefetch buffer offers a word), it goes to ID only
        // once the next word is there too; that word is not consumed.
        raw_valid = w0_valid;
        raw       = {16'b0, half_q};
        if (w0_valid && ready_i) begin
          pc_d         = pc_q + 32'd2;
          half_valid_d = 1'b0;
        end
      end else begin
        raw_valid = w0_valid;
        raw       = {w0[15:0], half_q};
        if (w0_valid && ready_i) begin
          consume = 1'b1;
          pc_d    = pc_q + 32'd4;
          half_d  = w0[31:16];
        end
      end
    end else if (w0_valid) begin
      // first word after a redirect to a halfword address: keep its upper half (taken only
      // when ID can take an instruction, as the CV32E40P's aligner)
      if (w0[17:16] != 2'b11) begin
        raw_valid = 1'b1;
        raw       = {16'b0, w0[31:16]};
      end
      if (ready_i) begin
        consume = 1'b1;
        half_d  = w0[31:16];
        if (w0[17:16] != 2'b11) begin
          pc_d = pc_q + 32'd2;
        end else begin
          half_valid_d = 1'b1;
        end
      end
    end

    if (branch_i) begin
      pc_d         = {branch_addr_i[31:1], 1'b0};
      half_valid_d = 1'b0;
    end
  end

  assign valid_o = raw_valid && !branch_i;
  assign busy_o  = instr_req_o || (outstanding_q != 2'd0);
  assign raw_o   = raw;
  assign pc_o    = pc_q;

  // ---------------------------------------------------------------------------------------------
  // Buffer update
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    fifo_d     = fifo_q;
    fifo_cnt_d = fifo_cnt_q;
    // append the live response
    if (resp_live) begin
      fifo_d[fifo_cnt_q[0]] = instr_rdata_i;
      fifo_cnt_d            = fifo_cnt_q + 2'd1;
    end
    // pop the consumed word
    if (consume) begin
      fifo_d[0]  = fifo_d[1];
      fifo_cnt_d = fifo_cnt_d - 2'd1;
    end
    if (branch_i) begin
      fifo_cnt_d = 2'd0;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Requests
  // ---------------------------------------------------------------------------------------------
  logic [31:0] new_addr;
  logic        want_new, granted, granted_stale;
  logic [1:0]  out_after_resp, disc_after_resp;

  assign new_addr = branch_i ? {branch_addr_i[31:2], 2'b00} : fetch_addr_q;
  assign want_new = req_i && ({1'b0, (branch_i ? 2'd0 : fifo_cnt_q)} + {1'b0, outstanding_q}
                              < 3'd2);

  assign instr_req_o   = pend_q || want_new;
  assign instr_addr_o  = pend_q ? pend_addr_q : new_addr;
  assign granted       = instr_req_o && instr_gnt_i;
  assign granted_stale = pend_q && (pend_stale_q || branch_i);

  assign out_after_resp  = outstanding_q - {1'b0, instr_rvalid_i};
  assign disc_after_resp = discard_q - {1'b0, instr_rvalid_i && (discard_q != 2'd0)};

  always_comb begin
    outstanding_d = out_after_resp + {1'b0, granted};
    discard_d     = (branch_i ? out_after_resp : disc_after_resp) +
                    {1'b0, granted && granted_stale};
    pend_d        = instr_req_o && !instr_gnt_i;
    pend_addr_d   = instr_addr_o;
    pend_stale_d  = pend_q ? (pend_stale_q || branch_i) : 1'b0;
    fetch_addr_d  = fetch_addr_q;
    if (branch_i) begin
      fetch_addr_d = {branch_addr_i[31:2], 2'b00};
    end
    if (!pend_q && want_new) begin
      // the new request is issued now (granted) or held (pending): continue after it
      fetch_addr_d = new_addr + 32'd4;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fifo_q[0]     <= '0;
      fifo_q[1]     <= '0;
      fifo_cnt_q    <= '0;
      outstanding_q <= '0;
      discard_q     <= '0;
      fetch_addr_q  <= '0;
      pend_q        <= 1'b0;
      pend_addr_q   <= '0;
      pend_stale_q  <= 1'b0;
      pc_q          <= '0;
      half_q        <= '0;
      half_valid_q  <= 1'b0;
    end else begin
      fifo_q        <= fifo_d;
      fifo_cnt_q    <= fifo_cnt_d;
      outstanding_q <= outstanding_d;
      discard_q     <= discard_d;
      fetch_addr_q  <= fetch_addr_d;
      pend_q        <= pend_d;
      pend_addr_q   <= pend_addr_d;
      pend_stale_q  <= pend_stale_d;
      pc_q          <= pc_d;
      half_q        <= half_d;
      half_valid_q  <= half_valid_d;
    end
  end

  logic unused_branch_addr;
  assign unused_branch_addr = branch_addr_i[0];

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `RV_ASSERT(FetchAtMostTwoInFlight, ({1'b0, fifo_cnt_q} + {1'b0, outstanding_q}) <= 3'd2)
  `RV_ASSERT(FetchNoUnexpectedResponse, !instr_rvalid_i || outstanding_q != 2'd0)
  `RV_ASSERT(FetchDiscardBounded, discard_q <= outstanding_q)

endmodule
