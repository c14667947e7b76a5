// rv_assert.svh: a named assertion that stays on under Verilator (no --assert needed).
// Usage, at the end of a module that has clk_i and rst_ni:
//   `RV_ASSERT(FetchAtMostTwoOutstanding, outstanding_q <= 2)
// A failure prints the assertion's name and the module path, then stops the simulation.
`ifndef RV_ASSERT_SVH
`define RV_ASSERT_SVH

`define RV_ASSERT(name, cond) \
  always_ff @(posedge clk_i) begin : g_assert_``name \
    if (rst_ni && !(cond)) begin \
      $display("rv_core: assertion %s failed in %m", `"name`"); \
      $stop; \
    end \
  end

`endif
