// The input flops of rv_core_sim and rv_cv32e40p_sim: a cycle's bus inputs and interrupt lines,
// given before the clock edge that starts it, are held for the cycle (the core sees *_q).
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
