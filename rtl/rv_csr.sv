// rv_csr: machine-mode control and status registers, the 64-bit counters with the one-hot
// mhpmevent selection, and the interrupt controller (registered irq lines, mie masking,
// priority selection).
//
// CSR instructions read and write in EX. Counters increment one cycle after the event (the
// events are registered), never while the core sleeps, and only while their mcountinhibit bit
// is clear; mcountinhibit resets with all implemented counters inhibited (0xD with one
// mhpmcounter), so mcycle and minstret stand still until software clears it.
module rv_csr #(
  parameter int unsigned NUM_MHPMCOUNTERS = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] hart_id_i,
  input  logic [31:0] mtvec_addr_i,
  input  logic        mtvec_init_i,   // load mtvec from mtvec_addr_i (boot)
  // CSR instruction in EX
  input  logic [11:0] addr_i,
  input  logic        re_i,           // a CSR instruction is in EX (rdata_o is wanted)
  input  logic        we_i,           // write this cycle
  input  rv_pkg::csr_op_e op_i,
  input  logic [31:0] wdata_i,        // rs1 value or zero-extended immediate
  output logic [31:0] rdata_o,
  // trap entry and return
  input  logic        save_i,         // trap entry this cycle
  input  logic        save_irq_i,     // ... for an interrupt
  input  logic [4:0]  save_cause_i,
  input  logic [31:0] save_epc_i,
  input  logic        mret_i,         // restore mstatus for mret
  output logic [31:0] mtvec_base_o,   // 256-byte aligned trap base
  output logic        mtvec_vectored_o,
  output logic [31:0] mepc_o,
  // the FPU (rv_fpu.sv): present; an F result's fflags (ORed in) and an F register written
  // (mstatus.FS becomes Dirty); mstatus.FS not Off; fcsr.frm
  input  logic        fpu_i,
  input  logic        zfinx_i,        // ZFINX: no F registers, misa.F 0, mstatus.FS stays Off
  input  logic        fflags_we_i,
  input  logic [4:0]  fflags_i,
  input  logic        fs_dirty_i,
  output logic        fs_on_o,
  output logic [2:0]  frm_o,
  // counters
  input  logic [rv_pkg::NUM_EVENTS-1:0] events_i,  // performance events of this cycle
  input  logic        sleeping_i,     // the core clock is gated: counters stop
  // interrupts
  input  logic [31:0] irq_i,
  output logic        irq_req_o,      // an enabled interrupt is pending and mstatus.MIE is set
  output logic        irq_wakeup_o,   // an interrupt is pending and enabled in mie
  output logic [4:0]  irq_id_o        // the highest-priority pending one
);
  import rv_pkg::*;

  localparam int unsigned NumHpm = 29;
  // mcountinhibit: mcycle (0), minstret (2) and the implemented mhpmcounters (3...)
  localparam logic [31:0] InhibitMask =
      32'h0000_0005 | (((32'h1 << NUM_MHPMCOUNTERS) - 32'h1) << 3);

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  logic        mie_bit_q, mpie_q;
  logic [31:0] mie_q, mscratch_q, mepc_q, irq_q;
  logic [23:0] mtvec_base_q;
  logic        mtvec_mode_q;
  logic        mcause_irq_q;
  logic [4:0]  mcause_code_q;
  logic [31:0] inhibit_q;
  logic [63:0] mcycle_q, minstret_q;
  logic [NUM_EVENTS-1:0] events_q;
  logic [63:0] hpm_value [NumHpm];
  logic [15:0] hpm_event [NumHpm];
  logic [1:0]  fs_q;      // mstatus.FS (FPU only; 0 Off, 3 Dirty)
  logic [4:0]  fflags_q;  // FPU only
  logic [2:0]  frm_q;

  assign fs_on_o = fs_q != 2'd0;
  logic fs_used;  // F registers exist (FPU without Zfinx): misa.F and mstatus.FS in use
  assign fs_used = fpu_i && !zfinx_i;
  assign frm_o   = frm_q;

  assign mtvec_base_o     = {mtvec_base_q, 8'b0};
  assign mtvec_vectored_o = mtvec_mode_q;
  assign mepc_o           = mepc_q;

  // ---------------------------------------------------------------------------------------------
  // Read
  // ---------------------------------------------------------------------------------------------
  logic        is_counter;
  logic [4:0]  cnt_idx;
  logic [63:0] cnt_value;

  assign is_counter = (addr_i[11:8] == 4'hB || addr_i[11:8] == 4'hC) &&
                      (addr_i[6:5] == 2'b00);
  assign cnt_idx    = addr_i[4:0];

  always_comb begin
    unique case (cnt_idx)
      5'd0:    cnt_value = mcycle_q;
      5'd2:    cnt_value = minstret_q;
      5'd1:    cnt_value = '0;
      default: cnt_value = hpm_value[cnt_idx - 5'd3];
    endcase
  end

  always_comb begin
    rdata_o = '0;
    if (!re_i) begin
      rdata_o = '0;  // nothing to read: skip the multiplexer
    end else if (is_counter) begin
      rdata_o = addr_i[7] ? cnt_value[63:32] : cnt_value[31:0];
    end else if (addr_i >= 12'h323 && addr_i <= 12'h33F) begin
      rdata_o = {16'b0, hpm_event[addr_i[4:0] - 5'd3]};
    end else begin
      unique case (addr_i)
        CSR_MSTATUS:       rdata_o = {fs_q == 2'd3, 16'b0, fs_q, 2'b11, 3'b0, mpie_q, 3'b0,
                                      mie_bit_q, 3'b0};
        CSR_MISA:          rdata_o = fs_used ? MISA_VALUE | MISA_F : MISA_VALUE;
        CSR_MIMPID:        rdata_o = {31'b0, fpu_i};
        CSR_FFLAGS:        rdata_o = {27'b0, fflags_q};
        CSR_FRM:           rdata_o = {29'b0, frm_q};
        CSR_FCSR:          rdata_o = {24'b0, frm_q, fflags_q};
        CSR_MIE:           rdata_o = mie_q;
        CSR_MTVEC:         rdata_o = {mtvec_base_q, 7'b0, mtvec_mode_q};
        CSR_MCOUNTINHIBIT: rdata_o = inhibit_q;
        CSR_MSCRATCH:      rdata_o = mscratch_q;
        CSR_MEPC:          rdata_o = mepc_q;
        CSR_MCAUSE:        rdata_o = {mcause_irq_q, 26'b0, mcause_code_q};
        CSR_MIP:           rdata_o = irq_q;
        CSR_MVENDORID:     rdata_o = MVENDORID_VALUE;
        CSR_MARCHID:       rdata_o = MARCHID_VALUE;
        CSR_MHARTID:       rdata_o = hart_id_i;
        default:           rdata_o = '0;  // mtval, trigger CSRs
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Write value
  // ---------------------------------------------------------------------------------------------
  logic [31:0] wval;

  always_comb begin
    wval = '0;
    if (we_i) unique case (op_i)
      CSR_OP_SET:   wval = rdata_o | wdata_i;
      CSR_OP_CLEAR: wval = rdata_o & ~wdata_i;
      default:      wval = wdata_i;
    endcase
  end

  function automatic logic wr(logic we, logic [11:0] addr, logic [11:0] target);
    return we && (addr == target);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Machine registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mie_bit_q     <= 1'b0;
      mpie_q        <= 1'b0;
      mie_q         <= '0;
      mscratch_q    <= '0;
      mepc_q        <= '0;
      mtvec_base_q  <= '0;
      mtvec_mode_q  <= 1'b1;
      mcause_irq_q  <= 1'b0;
      mcause_code_q <= '0;
      inhibit_q     <= InhibitMask;
      irq_q         <= '0;
      fs_q          <= '0;
      fflags_q      <= '0;
      frm_q         <= '0;
      events_q      <= '0;
    end else begin
      irq_q    <= irq_i & IRQ_MASK;
      events_q <= events_i;
      if (mtvec_init_i) begin
        mtvec_base_q <= mtvec_addr_i[31:8];
        mtvec_mode_q <= 1'b1;
      end
      if (wr(we_i, addr_i, CSR_MSTATUS)) begin
        mie_bit_q <= wval[3];
        mpie_q    <= wval[7];
        if (fs_used) fs_q <= wval[14:13];
      end
      // fflags, frm, fcsr (the decoder lets them through only with the FPU and FS not Off):
      // a write makes FS Dirty, as does an F result or flw
      if (wr(we_i, addr_i, CSR_FFLAGS)) fflags_q <= wval[4:0];
      if (wr(we_i, addr_i, CSR_FRM))    frm_q    <= wval[2:0];
      if (wr(we_i, addr_i, CSR_FCSR)) begin
        fflags_q <= wval[4:0];
        frm_q    <= wval[7:5];
      end
      if (fs_used && we_i && (addr_i == CSR_FFLAGS || addr_i == CSR_FRM || addr_i == CSR_FCSR))
        fs_q <= 2'd3;
      if (fflags_we_i) fflags_q <= fflags_q | fflags_i;
      if (fs_used && fs_dirty_i) fs_q <= 2'd3;
      if (wr(we_i, addr_i, CSR_MIE))           mie_q        <= wval & IRQ_MASK;
      if (wr(we_i, addr_i, CSR_MSCRATCH))      mscratch_q   <= wval;
      if (wr(we_i, addr_i, CSR_MEPC))          mepc_q       <= {wval[31:1], 1'b0};
      if (wr(we_i, addr_i, CSR_MCOUNTINHIBIT)) inhibit_q    <= wval & InhibitMask;
      if (wr(we_i, addr_i, CSR_MTVEC)) begin
        mtvec_base_q <= wval[31:8];
        mtvec_mode_q <= wval[0];
      end
      if (wr(we_i, addr_i, CSR_MCAUSE)) begin
        mcause_irq_q  <= wval[31];
        mcause_code_q <= wval[4:0];
      end
      if (save_i) begin
        mepc_q        <= save_epc_i;
        mcause_irq_q  <= save_irq_i;
        mcause_code_q <= save_cause_i;
        mpie_q        <= mie_bit_q;
        mie_bit_q     <= 1'b0;
      end else if (mret_i) begin
        mie_bit_q <= mpie_q;
        mpie_q    <= 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Counters
  // ---------------------------------------------------------------------------------------------
  function automatic logic [63:0] count(logic [63:0] value, logic inc, logic we,
                                        logic [11:0] addr, logic [4:0] idx, logic [31:0] wv);
    logic [63:0] v;
    v = value;
    if (we && addr == {4'hB, 3'b000, idx}) begin
      v[31:0] = wv;
    end else if (we && addr == {4'hB, 3'b100, idx}) begin
      v[63:32] = wv;
    end else if (inc) begin
      v = value + 64'd1;
    end
    return v;
  endfunction

  logic run;
  assign run = !sleeping_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mcycle_q   <= '0;
      minstret_q <= '0;
    end else begin
      mcycle_q   <= count(mcycle_q, run && !inhibit_q[0], we_i, addr_i, 5'd0, wval);
      minstret_q <= count(minstret_q, run && !inhibit_q[2] && events_q[EV_INSTR], we_i, addr_i,
                          5'd2, wval);
    end
  end

  for (genvar i = 0; i < NumHpm; i++) begin : g_hpm
    if (i < NUM_MHPMCOUNTERS) begin : g_impl
      logic [63:0] value_q;
      logic [15:0] event_q;
      logic        inc;
      assign inc          = run && !inhibit_q[i+3] && |(events_q & event_q);
      assign hpm_value[i] = value_q;
      assign hpm_event[i] = event_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          value_q <= '0;
          event_q <= '0;
        end else begin
          value_q <= count(value_q, inc, we_i, addr_i, 5'(i + 3), wval);
          if (wr(we_i, addr_i, 12'h323 + 12'(i))) event_q <= wval[15:0];
        end
      end
    end else begin : g_none
      assign hpm_value[i] = '0;
      assign hpm_event[i] = '0;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Interrupt controller
  // ---------------------------------------------------------------------------------------------
  logic [31:0] pending;

  // Requests come from the registered lines (mip); waking from WFI, as in the CV32E40P's
  // interrupt controller, from the lines themselves, a cycle earlier.
  assign pending      = irq_q & mie_q;
  assign irq_wakeup_o = |(irq_i & mie_q);
  assign irq_req_o    = (|pending) && mie_bit_q;

  always_comb begin
    irq_id_o = 5'd0;
    if (pending[7])  irq_id_o = 5'd7;
    if (pending[3])  irq_id_o = 5'd3;
    if (pending[11]) irq_id_o = 5'd11;
    for (int i = 16; i < 32; i++) begin
      if (pending[i]) irq_id_o = 5'(i);
    end
  end

  logic unused_csr;
  assign unused_csr = ^{mtvec_addr_i[7:0]};

endmodule
