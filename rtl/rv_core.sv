// rv_core: an RV32IMC + Zicsr + Zifencei machine-mode core with the pipeline and cycle timing
// of the OpenHW CV32E40P (COREV_PULP = 0, FPU = 0; with FPU = 1 and fpu_i, the CV32E40P's FPU:
// RV32F, with F registers or ZFINX, the APU dispatcher's timing, docs/fpu.md). Same parameters and ports as the CV32E40P
// top level, plus the FPU's run-time choice and a retire-trace port (rvfi_*).
//
// Pipeline: IF (rv_fetch: prefetch buffer, aligner, RVC expansion) -> ID (decode, register
// read with forwarding, hazards; jal/jalr redirect here) -> EX (ALU, branch decision,
// multiplier, divider, CSRs, load/store requests; results written to the register file) ->
// WB (load data; every instruction retires here, in order, and is reported on rvfi_*).
//
// Hazards, as on the CV32E40P:
//   load-use: an instruction that reads (or writes, through the EX port) the destination of a
//   load in EX waits one cycle; the load data is then forwarded from WB.
//   jalr: its target is formed from the register file without forwarding, so it waits while
//   rs1 is being written by the instruction in EX or by a load in WB.
//   EX results (ALU, mul, div, CSR) are forwarded to ID without a stall.
//
// Debug: the RISC-V debug mode (dcsr, dpc, the debug ROM at dm_halt_addr_i) is not implemented.
// In its place, for socsim's GDB stub (models/cpu/debug/gdb_session.h), a halt with the same
// pipeline behaviour as the CV32E40P's debug request: with debug_req_i high, a simulator hook
// (socsim_debug_halt, called through $c, asked in each cycle the instruction in ID could enter EX) may halt
// the core before that instruction, which is killed as for an interrupt; the older ones
// complete, and once the pipeline is empty debug_halted_o is high. The driver then reads and
// writes the register file (regs_q, public) and, through socsim_debug_resume, lets the core
// refetch from a pc of its choice. With debug_req_i low none of this is reachable.
module rv_core #(
  parameter int unsigned COREV_PULP       = 0,  // must be 0
  parameter int unsigned COREV_CLUSTER    = 0,  // must be 0
  parameter int unsigned FPU              = 0,  // 1: with the FPU, enabled by fpu_i (below)
  parameter int unsigned FPU_ADDMUL_LAT   = 0,  // unused: fpu_addmul_lat_i
  parameter int unsigned FPU_OTHERS_LAT   = 0,  // unused: fpu_others_lat_i
  parameter int unsigned ZFINX            = 0,  // must be 0: fpu_zfinx_i chooses ZFINX
  parameter int unsigned NUM_MHPMCOUNTERS = 1   // 0..29
) (
  input  logic        clk_i,
  input  logic        rst_ni,               // asynchronous, active low
  input  logic        pulp_clock_en_i,      // unused (COREV_CLUSTER = 0)
  input  logic        scan_cg_en_i,         // unused
  input  logic [31:0] boot_addr_i,
  input  logic [31:0] mtvec_addr_i,         // mtvec reset value (bits 31:8)
  input  logic [31:0] dm_halt_addr_i,
  input  logic [31:0] hart_id_i,
  input  logic [31:0] dm_exception_addr_i,
  // With FPU = 1, the FPU (the CV32E40P's FPU = 1, FPU_ADDMUL_LAT, FPU_OTHERS_LAT, ZFINX
  // parameters), chosen when the core is reset (sampled during reset, as boot_addr_i): RV32F,
  // f0..f31 (or with ZFINX the x registers), fcsr, the APU dispatcher (docs/fpu.md); 0: the
  // core without FPU, unchanged.
  // (FPU = 0 leaves the FPU's logic out of the simulated model: the integer-only core keeps
  // its simulation speed.)
  input  logic        fpu_i,
  input  logic [1:0]  fpu_addmul_lat_i,     // 0..2
  input  logic [1:0]  fpu_others_lat_i,     // 0..2
  input  logic        fpu_zfinx_i,          // with fpu_i: ZFINX (F operands in x registers)
  // OBI instruction interface
  output logic        instr_req_o,
  input  logic        instr_gnt_i,
  input  logic        instr_rvalid_i,
  output logic [31:0] instr_addr_o,
  input  logic [31:0] instr_rdata_i,
  // OBI data interface
  output logic        data_req_o,
  input  logic        data_gnt_i,
  input  logic        data_rvalid_i,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  input  logic [31:0] data_rdata_i,
  // interrupts
  input  logic [31:0] irq_i,                // level-sensitive
  output logic        irq_ack_o,
  output logic [4:0]  irq_id_o,
  // debug
  input  logic        debug_req_i,
  output logic        debug_havereset_o,
  output logic        debug_running_o,
  output logic        debug_halted_o,
  // control
  input  logic        fetch_enable_i,       // one cycle high starts the core
  output logic        core_sleep_o,
  // retire trace: one instruction per cycle at most, in program order
  output logic        rvfi_valid_o,
  output logic [31:0] rvfi_pc_o,
  output logic [31:0] rvfi_insn_o,          // as fetched; 16-bit ones zero-extended
  output logic [31:0] rvfi_next_pc_o,       // next pc (trap vector for traps)
  output logic [4:0]  rvfi_rd_o,            // 0 if none
  output logic [31:0] rvfi_rd_value_o,
  output logic        rvfi_mem_valid_o,
  output logic        rvfi_mem_write_o,
  output logic [2:0]  rvfi_mem_size_o,      // 1, 2 or 4 bytes
  output logic [31:0] rvfi_mem_addr_o,      // byte address
  output logic [31:0] rvfi_mem_data_o,      // store data or loaded bytes, unextended
  output logic        rvfi_trap_o,          // the instruction raised an exception
  output logic [31:0] rvfi_trap_cause_o,
  output logic        rvfi_intr_o,          // first instruction of an interrupt handler
  output logic [31:0] rvfi_intr_cause_o,    // mcause of that interrupt
  // A conditional branch that leaves EX while WB still waits for a memory response (it
  // skips WB): it retires after WB's instruction, so the receiver holds it until the next
  // rvfi_valid_o record and reports it right after that one.
  output logic        rvfi_br_valid_o,
  output logic [31:0] rvfi_br_pc_o,
  output logic [31:0] rvfi_br_insn_o,
  output logic [31:0] rvfi_br_next_pc_o,
  output logic        rvfi_br_intr_o,
  output logic [31:0] rvfi_br_intr_cause_o
);
  import rv_pkg::*;

  `include "rv_assert.svh"

  // =============================================================================================
  // Signals
  // =============================================================================================
  // IF
  logic        if_valid, if_accept, id_take;
  logic [31:0] if_raw, if_pc;
  // controller
  logic        fetch_req, pc_set, halt_if, halt_id, is_decoding, in_decode, kill_id, mtvec_init;
  pc_sel_e     pc_sel;
  logic [31:0] flush_pc, pc_target;
  logic        csr_save, csr_save_irq, csr_mret;
  logic [4:0]  csr_save_cause;
  logic [31:0] csr_save_epc;
  logic        irq_req, irq_wakeup;
  logic [4:0]  irq_id;
  // ID
  logic        id_valid_q, id_compressed, id_illegal_c;
  logic [31:0] id_instr, id_raw_q, id_pc_q;
  decode_t     dec;
  fp_decode_t  fdec, fdec_raw;
  assign fdec = (FPU != 0) ? fdec_raw : '0;
  logic [4:0]  id_rs1, id_rs2, id_rd;
  logic [31:0] rf_a, rf_b, rf_c, rs1_val, rs2_val, id_opa, id_opb, id_target;
  logic        load_stall, jr_stall, id_free, id_ready;
  // EX
  logic        ex_valid_q, ex_compressed_q, ex_rd_we_q, ex_mem_load_q, ex_mem_store_q;
  logic        ex_mem_unsigned_q, ex_csr_write_q, ex_intr_q;
  logic [31:0] ex_pc_q, ex_raw_q, ex_opa_q, ex_opb_q, ex_wdata_q, ex_target_q;
  logic [31:0] ex_intr_cause_q;
  logic [4:0]  ex_rd_q, ex_fd_q;
  logic        ex_fload_q, ex_we6_q, ex_alu_port_q;
  logic [1:0]  ex_apu_class_q;
  logic [1:0]  ex_md_op_q, ex_mem_size_q;
  logic [11:0] ex_csr_addr_q;
  unit_e       ex_unit_q;
  alu_op_e     ex_alu_op_q;
  xfer_e       ex_xfer_q;
  sys_e        ex_sys_q;
  logic [31:0] alu_result, mult_result, div_result, csr_rdata, ex_result, ex_next_pc;
  logic        mult_ready, div_ready, lsu_ex_done, ex_unit_done, ex_done, ex_ready;
  logic        mulh_late, lsu_split, apu_ex_wait;
  logic [31:0] apu_result_q;
  logic        branch_taken_ex;
  logic [31:0] mtvec_base, mepc;
  logic        mtvec_vectored;
  // WB
  logic        wb_valid_q, wb_load_q, wb_mem_q, wb_mem_write_q, wb_trap_q, wb_intr_q;
  logic [31:0] wb_pc_q, wb_raw_q, wb_next_pc_q, wb_rd_value_q, wb_mem_addr_q, wb_mem_wdata_q;
  logic [31:0] wb_trap_cause_q, wb_intr_cause_q;
  logic [4:0]  wb_rd_q;
  logic [2:0]  wb_mem_size_q;
  logic        wb_done, wb_free;
  logic        lsu_resp_final;
  logic [31:0] lsu_load_value, lsu_load_raw;
  // interrupt tag for the trace
  logic        intr_tag_q;
  logic [4:0]  intr_tag_id_q;

  // =============================================================================================
  // Static configuration, sampled while in reset (the inputs are expected to be stable; the
  // flops also keep them out of every combinational path)
  // =============================================================================================
  logic [31:0] boot_addr_q, hart_id_q;
  logic        fpu_q, fpu_on, zfinx_q, zfinx_on;
  logic [1:0]  addmul_lat_q, others_lat_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      boot_addr_q  <= boot_addr_i;
      hart_id_q    <= hart_id_i;
      fpu_q        <= fpu_i;
      zfinx_q      <= fpu_zfinx_i;
      addmul_lat_q <= fpu_addmul_lat_i;
      others_lat_q <= fpu_others_lat_i;
    end
  end
  // FPU = 0 (the core built without it): a constant, so the simulator leaves every FPU path
  // out; FPU = 1: fpu_i chooses at reset.
  assign fpu_on = (FPU != 0) && fpu_q;
  // ZFINX (with the FPU): the F register fields name x registers (6-bit addresses 0..31)
  assign zfinx_on = fpu_on && zfinx_q;

  // =============================================================================================
  // IF stage
  // =============================================================================================
  rv_fetch u_fetch (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_i          (fetch_req),
    .branch_i       (pc_set),
    .branch_addr_i  (pc_target),
    .instr_req_o    (instr_req_o),
    .instr_gnt_i    (instr_gnt_i),
    .instr_addr_o   (instr_addr_o),
    .instr_rvalid_i (instr_rvalid_i),
    .instr_rdata_i  (instr_rdata_i),
    .valid_o        (if_valid),
    .raw_o          (if_raw),
    .pc_o           (if_pc),
    .busy_o         (fetch_busy),
    .ready_i        (id_take)
  );

  // ID can take an instruction this cycle (the CV32E40P's if_valid without fetch_valid): when
  // it hands its own on, or, when it is empty, when no stall (stale ones included) holds it
  // and EX can take an instruction; never while the fetch is halted or redirected.
  assign id_take   = !halt_if && !pc_set && (id_valid_q ? id_ready : id_free);
  assign if_accept = if_valid && id_take;

  always_comb begin
    unique case (pc_sel)
      PC_BOOT:      pc_target = {boot_addr_q[31:2], 2'b00};
      PC_JUMP:      pc_target = id_target;
      PC_BRANCH:    pc_target = ex_target_q;
      PC_EXCEPTION: pc_target = mtvec_base;
      PC_IRQ:       pc_target = mtvec_vectored ? mtvec_base + {25'b0, irq_id, 2'b00} : mtvec_base;
      PC_MRET:      pc_target = mepc;
      PC_DEBUG:     pc_target = dbg_resume_pc;
      default:      pc_target = flush_pc + 32'd4;  // PC_FENCEI
    endcase
  end

  // =============================================================================================
  // ID stage
  // =============================================================================================
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      id_valid_q <= 1'b0;
      id_raw_q   <= '0;
      id_pc_q    <= '0;
    end else begin
      id_valid_q <= if_accept || (id_valid_q && !id_ready && !kill_id);
      if (if_accept) begin
        id_raw_q <= if_raw;
        id_pc_q  <= if_pc;
      end
    end
  end

  rv_rvc_expand u_rvc_expand (
    .instr_i         (id_raw_q),
    .fpu_i           (fpu_on),
    .instr_o         (id_instr),
    .is_compressed_o (id_compressed),
    .illegal_o       (id_illegal_c)
  );

  logic       fs_on;
  logic [2:0] frm;
  rv_decoder u_decoder (
    .instr_i      (id_instr),
    .illegal_c_i  (id_illegal_c),
    .fpu_i        (fpu_on),
    .fs_on_i      (fs_on),
    .zfinx_i      (zfinx_on),
    .frm_i        (frm),
    .addmul_lat_i (addmul_lat_q),
    .others_lat_i (others_lat_q),
    .dec_o        (dec),
    .fdec_o       (fdec_raw)
  );

  assign id_rs1 = id_instr[19:15];
  assign id_rs2 = id_instr[24:20];
  assign id_rd  = id_instr[11:7];

  rv_regfile u_regfile (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .raddr_a_i (id_rs1),
    .rdata_a_o (rf_a),
    .raddr_b_i (id_rs2),
    .rdata_b_o (rf_b),
    .raddr_c_i (id_instr[31:27]),
    .rdata_c_o (rf_c),
    .we_a_i    (ex_done && ex_rd_we_q),
    .waddr_a_i (ex_rd_q),
    .wdata_a_i (ex_result),
    .we_b_i    (lsu_resp_final && wb_valid_q && wb_load_q),
    .waddr_b_i (wb_rd_q),
    .wdata_b_i (lsu_load_value),
    .a_apu_i   (ex_unit_q == UNIT_APU)
  );

  // Operand forwarding: EX result (valid in the cycle EX completes), then the load in WB.
  logic fw_ex, fw_wb;
  assign fw_ex = ex_valid_q && ex_rd_we_q;
  assign fw_wb = wb_valid_q && wb_load_q && lsu_resp_final;

  always_comb begin
    rs1_val = rf_a;
    if (id_rs1 == 5'd0)                      rs1_val = '0;
    else if (fw_ex && ex_rd_q == id_rs1)     rs1_val = ex_result;
    else if (fw_wb && wb_rd_q == id_rs1)     rs1_val = lsu_load_value;
    rs2_val = rf_b;
    if (id_rs2 == 5'd0)                      rs2_val = '0;
    else if (fw_ex && ex_rd_q == id_rs2)     rs2_val = ex_result;
    else if (fw_wb && wb_rd_q == id_rs2)     rs2_val = lsu_load_value;
  end

  // F registers (FPU only): operands with the same forwarding (an F result leaving EX, flw's
  // data in WB).
  logic [4:0]  id_rs3;
  logic [31:0] frf_a, frf_b, frf_c, frs1_val, frs2_val, frs3_val;
  logic [31:0] rs3_val, fop_a, fop_b, fop_c;  // (Zfinx: x rs3; the F operation's operands)
  logic        ex_f_we_q, wb_fload_q;
  logic [4:0]  wb_frd_q;
  logic        ffw_ex, ffw_wb;
  assign id_rs3 = id_instr[31:27];

  if (FPU != 0) begin : g_fregs
    rv_regfile #(.ZERO_R0(1'b0)) u_fregfile (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .raddr_a_i (id_rs1),
      .rdata_a_o (frf_a),
      .raddr_b_i (id_rs2),
      .rdata_b_o (frf_b),
      .raddr_c_i (id_rs3),
      .rdata_c_o (frf_c),
      .we_a_i    (ex_done && ex_f_we_q),
      .waddr_a_i (ex_fd_q),
      .wdata_a_i (ex_result),
      .we_b_i    (lsu_resp_final && wb_valid_q && wb_fload_q),
      .waddr_b_i (wb_frd_q),
      .wdata_b_i (lsu_load_value),
      .a_apu_i   (1'b1)
    );

    assign ffw_ex = ex_valid_q && ex_f_we_q;
    assign ffw_wb = wb_valid_q && wb_fload_q && lsu_resp_final;

    always_comb begin
      frs1_val = frf_a;
      if (ffw_ex && ex_fd_q == id_rs1)      frs1_val = ex_result;
      else if (ffw_wb && wb_frd_q == id_rs1) frs1_val = lsu_load_value;
      frs2_val = frf_b;
      if (ffw_ex && ex_fd_q == id_rs2)      frs2_val = ex_result;
      else if (ffw_wb && wb_frd_q == id_rs2) frs2_val = lsu_load_value;
      frs3_val = frf_c;
      if (ffw_ex && ex_fd_q == id_rs3)      frs3_val = ex_result;
      else if (ffw_wb && wb_frd_q == id_rs3) frs3_val = lsu_load_value;
      rs3_val = rf_c;
      if (id_rs3 == 5'd0)                    rs3_val = '0;
      else if (fw_ex && ex_rd_q == id_rs3)   rs3_val = ex_result;
      else if (fw_wb && wb_rd_q == id_rs3)   rs3_val = lsu_load_value;
    end
    assign fop_a = zfinx_on ? rs1_val : frs1_val;
    assign fop_b = zfinx_on ? rs2_val : frs2_val;
    assign fop_c = zfinx_on ? rs3_val : frs3_val;
  end else begin : g_no_fregs
    assign frs1_val = '0;
    assign frs2_val = '0;
    assign frs3_val = '0;
    assign {frf_a, frf_b, frf_c, ffw_ex, ffw_wb, rs3_val, fop_a, fop_b, fop_c} = '0;
    logic unused_fregs;  // what only the FPU reads
    assign unused_fregs = ^{frf_a, frf_b, frf_c, frs1_val, frs3_val, ex_f_we_q, wb_fload_q,
                            wb_frd_q, ffw_ex, ffw_wb, fdec, rf_c, rs3_val, fop_a, fop_b, fop_c,
                            zfinx_on};
  end

  always_comb begin
    unique case (dec.opa_sel)
      OPA_PC:   id_opa = id_pc_q;
      OPA_ZERO: id_opa = '0;
      OPA_ZIMM: id_opa = {27'b0, id_rs1};
      default:  id_opa = rs1_val;
    endcase
    unique case (dec.opb_sel)
      OPB_RS2: id_opb = rs2_val;
      OPB_LEN: id_opb = id_compressed ? 32'd2 : 32'd4;
      default: id_opb = dec.imm;
    endcase
  end

  // Jump targets are formed in ID; jalr reads the register file without forwarding.
  assign id_target = (dec.xfer == XFER_JALR) ? ((rf_a + dec.imm) & ~32'd1) : id_pc_q + dec.imm;

  // Hazards
  logic ex_load, wb_load_wait, dep_ex, dep_wb, jr_stall_x, apu_jr_stall, apu_id_stall;
  assign ex_load      = ex_valid_q && ex_mem_load_q;
  assign wb_load_wait = wb_valid_q && wb_load_q && !lsu_resp_final;

  // Reads rs1/rs2 that the target register is, or writes it through the EX port (the
  // CV32E40P also stalls on this write-after-write case, for an instruction being decoded).
  function automatic logic reads(logic [4:0] target);
    return (dec.rs1_used && id_rs1 != 5'd0 && id_rs1 == target) ||
           (dec.rs2_used && id_rs2 != 5'd0 && id_rs2 == target);
  endfunction
  function automatic logic depends(logic [4:0] target);
    return reads(target) || (id_valid_q && dec.rd_we && id_rd == target);
  endfunction

  // As in the CV32E40P, the stall conditions are evaluated on the ID register whether or not
  // it holds a valid instruction: when ID is empty they come from the stale instruction that
  // left it (only its register reads count then). Such a stale stall keeps the next
  // instruction out of ID for the cycle: e.g. `jalr ra, 0(ra)` stalls on its own link write
  // while it is in EX, so a call through auipc/jalr costs one cycle more than a jalr whose
  // rd and rs1 differ, and `lw a0, 0(a0)` followed by a fetch bubble delays its successor.
  assign dep_ex     = depends(ex_rd_q);
  assign dep_wb     = depends(wb_rd_q);
  assign jr_stall_x = (dec.xfer == XFER_JALR) && (id_rs1 != 5'd0) &&
                      ((ex_valid_q && (ex_rd_we_q || ex_mem_load_q) && ex_rd_q == id_rs1) ||
                       (wb_valid_q && wb_load_q && wb_rd_q == id_rs1));

  // With the FPU the load-use stall compares the CV32E40P's 6-bit register addresses (x0..x31,
  // f0..f31): the registers ID reads, and the one it writes through the ALU port (not an APU
  // operation's), against a load's destination in EX or waiting in WB.
  logic [5:0] id_waddr6, ex_waddr6_q, wb_waddr6_q;
  assign id_waddr6 = {fdec.fdest, id_rd};
  // F operands: F registers (address bit 5 set), or with Zfinx the x registers (x0 is no
  // read for the load-use stall, as for integer operands).
  function automatic logic freads6(logic [5:0] t);
    return t[5] == !zfinx_on && ((fdec.frs1_used && id_rs1 == t[4:0]) ||
                                 (fdec.frs2_used && id_rs2 == t[4:0]) ||
                                 (fdec.frs3_used && id_rs3 == t[4:0]));
  endfunction
  function automatic logic reads6(logic [5:0] t);
    return (t[5] == 1'b0 && reads(t[4:0])) || (freads6(t) && !(zfinx_on && t == 6'd0));
  endfunction
  // The registers the APU dispatcher sees read (the CV32E40P's operand multiplexers' addresses,
  // compared without leaving x0 out): the F operands (x0 too), the rs2 field of OP-FP but
  // fmv.x.w/fmv.w.x, the rs1 and rs2 fields of fence and the system instructions, address 0
  // of the third operand's default (all but stores, branches, jumps, fadd.s, fsub.s and the
  // fused four) and of an integer operand named x0.
  logic id_fp_op, id_sys_fields, id_third_operand, id_legal;
  assign id_fp_op         = id_instr[6:0] == 7'b1010011;
  assign id_sys_fields    = id_instr[6:0] == 7'b0001111 ||
                            (id_instr[6:0] == 7'b1110011 && id_instr[14:12] == 3'b000);
  assign id_third_operand = dec.mem_store || dec.xfer != XFER_NONE || fdec.frs3_used ||
                            (id_fp_op && (id_instr[31:25] == 7'b0000000 ||
                                          id_instr[31:25] == 7'b0000100));
  assign id_legal         = dec.sys != SYS_ILLEGAL;
  function automatic logic apu_reads6(logic [5:0] t);
    return reads6(t) || freads6(t) ||
           (fdec.frs2_apu && t == {!zfinx_on, id_rs2}) ||
           (id_sys_fields && (t == {1'b0, id_rs1} || t == {1'b0, id_rs2})) ||
           (t == 6'd0 && id_legal && (!id_third_operand || (dec.rs1_used && id_rs1 == 5'd0) ||
                                      (dec.rs2_used && id_rs2 == 5'd0)));
  endfunction
  function automatic logic depends6(logic [5:0] t);
    return reads6(t) || (id_valid_q && fdec.alu_port && fdec.we6 && id_waddr6 == t);
  endfunction
  assign load_stall = fpu_on ? (ex_load && depends6(ex_waddr6_q)) ||
                              (wb_load_wait && depends6(wb_waddr6_q))
                            : (ex_load && dep_ex) || (wb_load_wait && dep_wb);
  assign jr_stall   = jr_stall_x || apu_jr_stall;
  assign id_free    = !load_stall && !jr_stall && !apu_id_stall && ex_ready;
  assign id_ready   = id_valid_q && is_decoding && !halt_id && id_free;

  // =============================================================================================
  // Controller
  // =============================================================================================
  // fetch_enable_i is sticky and registered before the controller sees it, as in the
  // CV32E40P's sleep unit: the first fetch request goes out two cycles after the first cycle in
  // which fetch_enable_i is high.
  logic fetch_enable_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fetch_enable_q <= 1'b0;
    else if (fetch_enable_i) fetch_enable_q <= 1'b1;
  end

  // Sleep, as in the CV32E40P's sleep unit: the clock stops (and the counters with it) once
  // the controller idles in WFI and neither the fetch nor the LSU had a request made or
  // outstanding in the cycle before; the interrupt lines wake it at once.
  logic ctrl_idle, fetch_busy, lsu_busy, busy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_q <= 1'b0;
    else         busy_q <= !ctrl_idle || fetch_busy || lsu_busy;
  end
  assign core_sleep_o = fetch_enable_q && !irq_wakeup && !busy_q;

  // The debugger's halt (see the top of this file). The hook is asked only with debug_req_i
  // high, in DECODE, when the ID instruction could enter EX this cycle (no stall, no taken
  // branch, no interrupt), with its pc, its (expanded) bits and its rs1 operand (forwarded);
  // `issued`: an instruction has entered EX since the last resume. In DBG_HALT, once the
  // pipeline is empty, socsim_debug_resume says whether to resume now and where.
  // The hooks are C++ functions called through $c (models/cpu/rtl/debug_hooks.h), not DPI-C
  // imports: a DPI call in the cycle's evaluation stops Verilator from keeping its temporaries
  // in locals, which costs about 4 % more host instructions even with debug_req_i low.
  logic        dbg_halt, dbg_resume, dbg_mode, dbg_drained, dbg_issued_q;
  logic [31:0] dbg_resume_pc;
  logic [31:0] dbg_pc_q /*verilator public_flat_rd*/;  // the halted instruction's pc (dpc)
  always_comb begin
    dbg_halt = 1'b0;
    if (debug_req_i && in_decode && id_valid_q && id_free && !branch_taken_ex && !irq_req) begin
      dbg_halt = $c1("socsim_debug_halt(", id_pc_q, ", ", id_instr, ", ", rs1_val, ", ",
                     dbg_issued_q, ")");
    end
  end
  always_comb begin
    dbg_resume    = 1'b0;
    dbg_resume_pc = '0;
    if (dbg_mode && dbg_drained) begin
      dbg_resume    = $c1("socsim_debug_resume()");
      dbg_resume_pc = $c32("socsim_debug_resume_pc()");
    end
  end
  assign debug_halted_o = dbg_mode && dbg_drained && !dbg_resume;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dbg_issued_q <= 1'b0;
      dbg_pc_q     <= '0;
    end else begin
      dbg_issued_q <= !dbg_resume && (dbg_issued_q || id_ready);
      if (dbg_halt) dbg_pc_q <= id_pc_q;
    end
  end

  rv_controller u_controller (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .fetch_enable_i    (fetch_enable_q),
    .id_valid_i        (id_valid_q),
    .id_sys_i          (dec.sys),
    .id_csr_i          (id_instr[6:0] == 7'b1110011 && id_instr[14:12] != 3'b000),
    .id_xfer_i         (dec.xfer),
    .jr_stall_i        (jr_stall),
    .id_ready_i        (id_ready),
    .id_pc_i           (id_pc_q),
    .if_pc_i           (if_pc),
    .branch_taken_ex_i (branch_taken_ex),
    .ex_ready_i        (ex_ready),
    .irq_req_i         (irq_req),
    .irq_wakeup_i      (irq_wakeup),
    .irq_id_i          (irq_id),
    .debug_halt_i      (dbg_halt),
    .debug_resume_i    (dbg_resume),
    .fetch_req_o       (fetch_req),
    .pc_set_o          (pc_set),
    .pc_sel_o          (pc_sel),
    .flush_pc_o        (flush_pc),
    .halt_if_o         (halt_if),
    .halt_id_o         (halt_id),
    .is_decoding_o     (is_decoding),
    .in_decode_o       (in_decode),
    .kill_id_o         (kill_id),
    .mtvec_init_o      (mtvec_init),
    .csr_save_o        (csr_save),
    .csr_save_irq_o    (csr_save_irq),
    .csr_save_cause_o  (csr_save_cause),
    .csr_save_epc_o    (csr_save_epc),
    .csr_mret_o        (csr_mret),
    .irq_ack_o         (irq_ack_o),
    .irq_ack_id_o      (irq_id_o),
    .sleeping_o        (ctrl_idle),
    .debug_havereset_o (debug_havereset_o),
    .debug_running_o   (debug_running_o),
    .debug_mode_o      (dbg_mode)
  );

  // =============================================================================================
  // EX stage
  // =============================================================================================
  // A CSR instruction reads its CSR in its first EX cycle, as the CV32E40P does, even when EX
  // then waits for WB (a counter read then is not the value of the cycle EX completes).
  logic        ex_first_q;
  logic [31:0] csr_value_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_first_q  <= 1'b0;
      csr_value_q <= '0;
    end else begin
      ex_first_q <= id_ready;
      if (ex_first_q) csr_value_q <= csr_rdata;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_valid_q        <= 1'b0;
      ex_compressed_q   <= 1'b0;
      ex_rd_we_q        <= 1'b0;
      ex_mem_load_q     <= 1'b0;
      ex_mem_store_q    <= 1'b0;
      ex_mem_unsigned_q <= 1'b0;
      ex_csr_write_q    <= 1'b0;
      ex_intr_q         <= 1'b0;
      ex_pc_q           <= '0;
      ex_raw_q          <= '0;
      ex_opa_q          <= '0;
      ex_opb_q          <= '0;
      ex_wdata_q        <= '0;
      ex_target_q       <= '0;
      ex_intr_cause_q   <= '0;
      ex_rd_q           <= '0;
      ex_md_op_q        <= '0;
      ex_mem_size_q     <= '0;
      ex_csr_addr_q     <= '0;
      ex_unit_q         <= UNIT_NONE;
      ex_alu_op_q       <= ALU_ADD;
      ex_xfer_q         <= XFER_NONE;
      ex_sys_q          <= SYS_NONE;
      ex_f_we_q         <= 1'b0;
      ex_fload_q        <= 1'b0;
      ex_fd_q           <= '0;
      ex_waddr6_q       <= '0;
      ex_we6_q          <= 1'b0;
      ex_alu_port_q     <= 1'b0;
      ex_apu_class_q    <= '0;
    end else begin
      ex_valid_q <= id_ready || (ex_valid_q && !ex_done);
      if (id_ready) begin
        ex_f_we_q         <= fdec.fdest && dec.unit == UNIT_APU;
        ex_fload_q        <= fdec.fdest && dec.mem_load;
        ex_fd_q           <= id_rd;
        ex_waddr6_q       <= id_waddr6;
        ex_we6_q          <= fdec.we6;
        ex_alu_port_q     <= fdec.alu_port;
        ex_apu_class_q    <= fdec.apu_class;
        ex_compressed_q   <= id_compressed;
        ex_rd_we_q        <= dec.rd_we;
        ex_mem_load_q     <= dec.mem_load;
        ex_mem_store_q    <= dec.mem_store;
        ex_mem_unsigned_q <= dec.mem_unsigned;
        ex_csr_write_q    <= dec.csr_write;
        ex_intr_q         <= intr_tag_q;
        ex_pc_q           <= id_pc_q;
        ex_raw_q          <= id_raw_q;
        ex_opa_q          <= id_opa;
        ex_opb_q          <= id_opb;
        ex_wdata_q        <= fdec.frs2_used ? frs2_val : rs2_val;  // fsw: an F register
        ex_target_q       <= id_target;
        ex_intr_cause_q   <= {1'b1, 26'b0, intr_tag_id_q};
        ex_rd_q           <= fdec.fdest ? 5'd0 : id_rd;  // no x register written
        ex_md_op_q        <= dec.md_op;
        ex_mem_size_q     <= dec.mem_size;
        ex_csr_addr_q     <= id_instr[31:20];
        ex_unit_q         <= dec.unit;
        ex_alu_op_q       <= dec.alu_op;
        ex_xfer_q         <= dec.xfer;
        ex_sys_q          <= dec.sys;
      end
    end
  end

  rv_alu u_alu (
    .op_i     (ex_alu_op_q),
    .a_i      (ex_opa_q),
    .b_i      (ex_opb_q),
    .result_o (alu_result)
  );

  rv_mult u_mult (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .enable_i     (ex_valid_q && ex_unit_q == UNIT_MUL),
    .op_i         (mul_op_e'(ex_md_op_q)),
    .a_i          (ex_opa_q),
    .b_i          (ex_opb_q),
    .ex_advance_i (ex_done),
    .result_o     (mult_result),
    .ready_o      (mult_ready),
    .late_o       (mulh_late)
  );

  rv_div u_div (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .enable_i     (ex_valid_q && ex_unit_q == UNIT_DIV),
    .op_i         (div_op_e'(ex_md_op_q)),
    .a_i          (ex_opa_q),
    .b_i          (ex_opb_q),
    .ex_advance_i (ex_done),
    .result_o     (div_result),
    .ready_o      (div_ready)
  );

  rv_lsu u_lsu (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .active_i       (ex_valid_q && ex_unit_q == UNIT_LSU),
    .we_i           (ex_mem_store_q),
    .size_i         (ex_mem_size_q),
    .unsigned_i     (ex_mem_unsigned_q),
    .addr_i         (alu_result),
    .wdata_i        (ex_wdata_q),
    .ex_advance_i   (ex_done),
    .ex_done_o      (lsu_ex_done),
    .split_o        (lsu_split),
    .resp_final_o   (lsu_resp_final),
    .busy_o         (lsu_busy),
    .load_value_o   (lsu_load_value),
    .load_raw_o     (lsu_load_raw),
    .data_req_o     (data_req_o),
    .data_gnt_i     (data_gnt_i),
    .data_we_o      (data_we_o),
    .data_be_o      (data_be_o),
    .data_addr_o    (data_addr_o),
    .data_wdata_o   (data_wdata_o),
    .data_rvalid_i  (data_rvalid_i),
    .data_rdata_i   (data_rdata_i)
  );

  // Performance events of this cycle. A stall counts once, in its first cycle: the CV32E40P
  // counts LD_STALL and JMP_STALL only when ID could pass an instruction on (no stall, not
  // halted) in the cycle before, whether or not ID held one.
  logic id_moved_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) id_moved_q <= 1'b0;
    else         id_moved_q <= !halt_id && id_free;
  end

  logic [NUM_EVENTS-1:0] events;
  logic                  counts_as_instr;
  assign counts_as_instr = id_ready && !(dec.sys inside {SYS_ILLEGAL, SYS_ECALL, SYS_EBREAK});
  always_comb begin
    events                  = '0;
    events[EV_CYCLES]       = 1'b1;
    events[EV_INSTR]        = counts_as_instr;
    events[EV_LD_STALL]     = load_stall && !halt_id && id_moved_q;
    events[EV_JMP_STALL]    = jr_stall && !halt_id && id_moved_q;
    events[EV_IMISS]        = is_decoding_state_fetch_miss();
    events[EV_LD]           = counts_as_instr && dec.mem_load;
    events[EV_ST]           = counts_as_instr && dec.mem_store;
    events[EV_JUMP]         = counts_as_instr && (dec.xfer inside {XFER_JAL, XFER_JALR});
    events[EV_BRANCH]       = counts_as_instr && (dec.xfer == XFER_BRANCH);
    events[EV_BRANCH_TAKEN] = branch_taken_ex;
    events[EV_COMP_INSTR]   = counts_as_instr && id_compressed;
    events[EV_PIPE_STALL]   = 1'b0;  // only with COREV_PULP (post-increment load stalls)
  end

  // Instruction miss: ID could take an instruction but the fetch has none (not counted in
  // redirect cycles or while the controller holds the fetch).
  function automatic logic is_decoding_state_fetch_miss();
    return fetch_req && !halt_if && !pc_set && !if_valid && (!id_valid_q || id_ready);
  endfunction

  rv_csr #(
    .NUM_MHPMCOUNTERS (NUM_MHPMCOUNTERS)
  ) u_csr (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .hart_id_i        (hart_id_q),
    .mtvec_addr_i     (mtvec_addr_i),
    .mtvec_init_i     (mtvec_init),
    .addr_i           (ex_csr_addr_q),
    .re_i             (ex_valid_q && ex_unit_q == UNIT_CSR),
    .we_i             (ex_done && ex_unit_q == UNIT_CSR && ex_csr_write_q),
    .op_i             (csr_op_e'(ex_md_op_q)),
    .wdata_i          (ex_opa_q),
    .rdata_o          (csr_rdata),
    .save_i           (csr_save),
    .save_irq_i       (csr_save_irq),
    .save_cause_i     (csr_save_cause),
    .save_epc_i       (csr_save_epc),
    .mret_i           (csr_mret),
    .mtvec_base_o     (mtvec_base),
    .mtvec_vectored_o (mtvec_vectored),
    .mepc_o           (mepc),
    .fpu_i            (fpu_on),
    .zfinx_i          (zfinx_on),
    .fflags_we_i      (ex_done && ex_apu),
    .fflags_i         (apu_flags_q),
    .fs_dirty_i       (ex_done && (ex_apu || ex_fload_q)),
    .fs_on_o          (fs_on),
    .frm_o            (frm),
    .events_i         (events),
    .sleeping_i       (core_sleep_o),
    .irq_i            (irq_i),
    .irq_req_o        (irq_req),
    .irq_wakeup_o     (irq_wakeup),
    .irq_id_o         (irq_id)
  );

  always_comb begin
    unique case (ex_unit_q)
      UNIT_MUL: begin ex_result = mult_result; ex_unit_done = mult_ready;  end
      UNIT_DIV: begin ex_result = div_result;  ex_unit_done = div_ready;   end
      UNIT_LSU: begin ex_result = alu_result;  ex_unit_done = lsu_ex_done; end
      UNIT_CSR: begin ex_result = ex_first_q ? csr_rdata : csr_value_q; ex_unit_done = 1'b1; end
      UNIT_APU: begin ex_result = apu_result_q; ex_unit_done = 1'b1;        end
      default:  begin ex_result = alu_result;  ex_unit_done = 1'b1;        end
    endcase
  end

  // =============================================================================================
  // The APU dispatcher and the FPU's timing (FPU only; docs/fpu.md). The rules of the
  // CV32E40P with FPnew: an F operation in EX is requested unless the one in flight could
  // return out of order (stall_type: a class-1 or class-3 operation while one is in flight, a
  // class-2 one after a class-3 one); FPnew grants it (a subnormal divisor: a cycle later). A
  // class-1 result comes in the cycle of its request, a class-2 one a cycle later, a class-3
  // one ("multicycle", FPU_*_LAT = 2, fdiv.s, fsqrt.s) after its cycles, on the ALU write
  // port: there it takes the port from a non-APU instruction in EX that writes it (EX waits
  // a cycle), or is held a cycle while EX has a misaligned access, a load response meets an
  // instruction writing the ALU port, a mulh computes its upper half, or a jalr in ID meets
  // one. One operation is in flight at most (the classes never fill the genuine dispatcher's
  // second slot).
  //
  // Data: the operation is computed as it enters EX (rv_fpu_execute, DPI-C: the ISS's RV32F
  // arithmetic) and its result written when it leaves EX; the dependence stalls keep every
  // younger instruction that reads it (or writes its register, or reads fcsr) in ID until the
  // cycle its result returns, so the early write is never seen before that cycle.
  // =============================================================================================
  import "DPI-C" function void rv_fpu_execute(input int instr, input int frm_value,
                                              input int a, input int b, input int c,
                                              input int xa, output int result,
                                              output int flags, output int cycles,
                                              output int nack);

  // the operation in flight: its destination (6-bit), class, cycles to its result; a held
  // multicycle result
  logic       apu_active_q, apu_rvalid_q;
  logic [5:0] apu_addr_q;
  logic [1:0] apu_class_q;
  logic [4:0] apu_cnt_q;
  logic       ex_apu, ex_alu_we, apu_multicycle, apu_jalr_dep, apu_hold, apu_rvalid;
  logic       apu_valid, apu_wb_contention, apu_stall_type, apu_valid_req, apu_req;
  logic       apu_returned_req;
  logic [4:0]  apu_flags_q;
  logic [4:0]  ex_apu_cycles_q;  // cycles from the request to the result (classes 2, 3)
  logic        ex_apu_nack_q;    // the request is not granted for a cycle (subnormal divisor)

  if (FPU != 0) begin : g_fpu_execute
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        apu_result_q    <= '0;
        apu_flags_q     <= '0;
        ex_apu_cycles_q <= '0;
        ex_apu_nack_q   <= 1'b0;
      end else if (id_ready && dec.unit == UNIT_APU) begin
        /* verilator lint_off UNUSEDSIGNAL */
        int result, flags, cycles, nack;  // (fflags are flags' low 5 bits)
        /* verilator lint_on UNUSEDSIGNAL */
        rv_fpu_execute(id_instr, {29'b0, frm}, fop_a, fop_b, fop_c, rs1_val, result, flags,
                       cycles, nack);
        apu_result_q    <= result;
        apu_flags_q     <= flags[4:0];
        // fdiv.s / fsqrt.s: what it costs alone, less its request's cycle, the next
        // instruction's and the ungranted one
        ex_apu_cycles_q <= fdec.apu_divsqrt ? 5'(cycles - 2 - nack) : {3'b0, fdec.apu_lat};
        ex_apu_nack_q   <= nack[0];
      end else if (apu_valid_req && !apu_req) begin
        ex_apu_nack_q   <= 1'b0;
      end
    end
  end else begin : g_no_fpu_execute
    assign {apu_result_q, apu_flags_q, ex_apu_cycles_q, ex_apu_nack_q} = '0;
  end


  assign ex_apu         = ex_valid_q && ex_unit_q == UNIT_APU;
  assign ex_alu_we      = ex_valid_q && ex_alu_port_q;
  assign apu_multicycle = apu_active_q && apu_class_q == 2'd3;
  assign apu_jalr_dep   = id_valid_q && in_decode && dec.xfer == XFER_JALR &&
                          ((ex_apu && ex_we6_q && ex_waddr6_q == {1'b0, id_rs1}) ||
                           (apu_active_q && apu_addr_q == {1'b0, id_rs1}));
  assign apu_hold       = (ex_valid_q && lsu_split) || (data_rvalid_i && ex_alu_we) ||
                          (ex_valid_q && ex_unit_q == UNIT_MUL && ex_md_op_q != MD_MUL &&
                           mulh_late) ||
                          (dec.xfer == XFER_JALR && ex_alu_we && !apu_jalr_dep);
  assign apu_rvalid     = apu_active_q && apu_cnt_q == 5'd1;
  assign apu_valid      = (apu_rvalid || apu_rvalid_q) && !(apu_multicycle && apu_hold);
  assign apu_wb_contention = apu_valid && apu_multicycle && ex_alu_we;
  assign apu_stall_type = ex_apu && apu_active_q &&
                          (ex_apu_class_q == 2'd1 || ex_apu_class_q == 2'd3 ||
                           (ex_apu_class_q == 2'd2 && apu_class_q == 2'd3));
  // (an operation that stays in EX after its request, EX waiting for WB, is requested again
  // in the next cycle the rules allow, as in the CV32E40P)
  assign apu_valid_req    = ex_apu && !apu_stall_type;
  assign apu_req          = apu_valid_req && !ex_apu_nack_q;
  assign apu_returned_req = apu_req && ex_apu_class_q == 2'd1;
  assign apu_ex_wait      = fpu_on && (apu_stall_type || (apu_valid_req && !apu_req) ||
                                      apu_wb_contention);

  if (FPU != 0) begin : g_apu_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        apu_active_q <= 1'b0;
        apu_rvalid_q <= 1'b0;
        apu_addr_q   <= '0;
        apu_class_q  <= '0;
        apu_cnt_q    <= '0;
      end else begin
        if (apu_rvalid && apu_multicycle && apu_hold) apu_rvalid_q <= 1'b1;
        else if (apu_rvalid_q && !apu_hold)          apu_rvalid_q <= 1'b0;
        if (apu_req && !apu_returned_req) begin
          apu_active_q <= 1'b1;
          apu_addr_q   <= ex_waddr6_q;
          apu_class_q  <= ex_apu_class_q;
          apu_cnt_q    <= ex_apu_cycles_q;
        end else begin
          if (apu_valid) apu_active_q <= 1'b0;
          if (apu_cnt_q != 5'd0) apu_cnt_q <= apu_cnt_q - 5'd1;
        end
      end
    end
  end else begin : g_no_apu_regs
    assign {apu_active_q, apu_rvalid_q, apu_addr_q, apu_class_q, apu_cnt_q} = '0;
    logic unused_apu;  // what only the FPU's registers read
    assign unused_apu = ^{apu_returned_req, ex_apu_cycles_q};
  end

  // Dependences in ID (read, write, jalr): on the valid instruction being decoded, the
  // operation requested in EX (not returning in this cycle) and the one in flight (until its
  // result is written); a CSR access waits while an operation of class 2 or 3 is in EX or one
  // is in flight.
  logic apu_busy_ex, apu_busy_fl, apu_decoding, apu_read_dep, apu_write_dep, id_csr_access;
  assign apu_busy_ex   = apu_valid_req && ex_apu_class_q != 2'd1;
  assign apu_busy_fl   = apu_active_q && !apu_valid;
  assign apu_decoding  = id_valid_q && in_decode;
  assign apu_read_dep  = (apu_busy_ex && apu_reads6(ex_waddr6_q)) ||
                         (apu_busy_fl && apu_reads6(apu_addr_q));
  assign apu_write_dep = fdec.we6 && dec.unit != UNIT_APU &&
                         ((apu_busy_ex && ex_waddr6_q == id_waddr6) ||
                          (apu_busy_fl && apu_addr_q == id_waddr6));
  assign id_csr_access = id_instr[6:0] == 7'b1110011 && id_instr[14:12] != 3'b000;
  assign apu_id_stall  = fpu_on && ((apu_decoding && (apu_read_dep || apu_write_dep)) ||
                                   (id_csr_access && ((ex_apu && ex_apu_class_q >= 2'd2) ||
                                                      apu_active_q)));
  assign apu_jr_stall  = fpu_on && apu_decoding && dec.xfer == XFER_JALR && apu_active_q &&
                         apu_addr_q == {1'b0, id_rs1};

  // A conditional branch needs nothing from WB: as in the CV32E40P (whose EX is always ready
  // with a branch in it), it leaves EX after its cycle even while WB waits for a response,
  // skipping WB (retire channel rvfi_br_*).
  logic ex_branch, ex_branch_skip;
  assign ex_branch       = ex_valid_q && (ex_xfer_q == XFER_BRANCH);
  assign ex_done         = ex_valid_q && ex_unit_done && !apu_ex_wait && (wb_free || ex_branch);
  assign ex_branch_skip  = ex_done && ex_branch && !wb_free;
  // EX can take an instruction when its own is done, or, when it is empty, when WB is not
  // waiting for a response (the CV32E40P's ex_ready includes WB's readiness either way).
  assign ex_ready        = ex_valid_q ? ex_done : wb_free;
  // A taken branch redirects the fetch in its EX cycle (a branch spends one cycle in EX; the
  // flag keeps a redirect from repeating should it ever stay longer).
  logic ex_redirected_q;
  assign branch_taken_ex = ex_valid_q && (ex_xfer_q == XFER_BRANCH) && alu_result[0] &&
                           !ex_redirected_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_redirected_q <= 1'b0;
    end else if (id_ready) begin
      ex_redirected_q <= 1'b0;
    end else if (branch_taken_ex) begin
      ex_redirected_q <= 1'b1;
    end
  end

  logic [31:0] ex_seq_pc;
  assign ex_seq_pc = ex_pc_q + (ex_compressed_q ? 32'd2 : 32'd4);

  always_comb begin
    ex_next_pc = ex_seq_pc;
    if (ex_xfer_q == XFER_JAL || ex_xfer_q == XFER_JALR) ex_next_pc = ex_target_q;
    if (ex_xfer_q == XFER_BRANCH && alu_result[0]) ex_next_pc = ex_target_q;
    if (ex_sys_q == SYS_MRET) ex_next_pc = mepc;
    if (ex_sys_q inside {SYS_ILLEGAL, SYS_ECALL, SYS_EBREAK}) ex_next_pc = mtvec_base;
  end

  // The first instruction that enters EX after an interrupt entry is the handler's first.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      intr_tag_q    <= 1'b0;
      intr_tag_id_q <= '0;
    end else if (irq_ack_o) begin
      intr_tag_q    <= 1'b1;
      intr_tag_id_q <= irq_id;
    end else if (id_ready) begin
      intr_tag_q    <= 1'b0;
    end
  end

  // =============================================================================================
  // WB stage: load data, retirement
  // =============================================================================================
  assign wb_done = !wb_mem_q || lsu_resp_final;
  assign wb_free = !wb_valid_q || wb_done;

  logic [31:0] store_data;
  always_comb begin
    unique case (ex_mem_size_q)
      2'd0:    store_data = {24'b0, ex_wdata_q[7:0]};
      2'd1:    store_data = {16'b0, ex_wdata_q[15:0]};
      default: store_data = ex_wdata_q;
    endcase
  end

  logic ex_trap;
  assign ex_trap = (ex_sys_q inside {SYS_ILLEGAL, SYS_ECALL, SYS_EBREAK});

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_valid_q      <= 1'b0;
      wb_load_q       <= 1'b0;
      wb_mem_q        <= 1'b0;
      wb_mem_write_q  <= 1'b0;
      wb_trap_q       <= 1'b0;
      wb_intr_q       <= 1'b0;
      wb_pc_q         <= '0;
      wb_raw_q        <= '0;
      wb_next_pc_q    <= '0;
      wb_rd_value_q   <= '0;
      wb_mem_addr_q   <= '0;
      wb_mem_wdata_q  <= '0;
      wb_trap_cause_q <= '0;
      wb_intr_cause_q <= '0;
      wb_rd_q         <= '0;
      wb_mem_size_q   <= '0;
      wb_fload_q      <= 1'b0;
      wb_frd_q        <= '0;
      wb_waddr6_q     <= '0;
    end else begin
      wb_valid_q <= (ex_done && !ex_branch_skip) || (wb_valid_q && !wb_done);
      if (ex_done && !ex_branch_skip) begin
        wb_load_q       <= ex_mem_load_q;
        wb_fload_q      <= ex_fload_q;
        wb_frd_q        <= ex_fd_q;
        wb_waddr6_q     <= ex_waddr6_q;
        wb_mem_q        <= ex_unit_q == UNIT_LSU;
        wb_mem_write_q  <= ex_mem_store_q;
        wb_trap_q       <= ex_trap;
        wb_intr_q       <= ex_intr_q;
        wb_pc_q         <= ex_pc_q;
        wb_raw_q        <= ex_raw_q;
        wb_next_pc_q    <= ex_next_pc;
        wb_rd_value_q   <= (ex_rd_we_q && ex_rd_q != 5'd0) ? ex_result : 32'd0;
        wb_mem_addr_q   <= alu_result;
        wb_mem_wdata_q  <= store_data;
        wb_trap_cause_q <= {27'b0, (ex_sys_q == SYS_ILLEGAL) ? EXC_ILLEGAL :
                                   (ex_sys_q == SYS_ECALL) ? EXC_ECALL_M : EXC_BREAKPOINT};
        wb_intr_cause_q <= ex_intr_cause_q;
        wb_rd_q         <= ((ex_rd_we_q || ex_mem_load_q) && !ex_trap) ? ex_rd_q : 5'd0;
        wb_mem_size_q   <= (ex_mem_size_q == 2'd0) ? 3'd1 : (ex_mem_size_q == 2'd1) ? 3'd2 : 3'd4;
      end
    end
  end

  assign rvfi_valid_o      = wb_valid_q && wb_done;
  assign rvfi_pc_o         = wb_pc_q;
  assign rvfi_insn_o       = wb_raw_q;
  assign rvfi_next_pc_o    = wb_next_pc_q;
  assign rvfi_rd_o         = wb_rd_q;
  assign rvfi_rd_value_o   = (wb_load_q && wb_rd_q != 5'd0) ? lsu_load_value : wb_rd_value_q;
  assign rvfi_mem_valid_o  = wb_mem_q;
  assign rvfi_mem_write_o  = wb_mem_write_q;
  assign rvfi_mem_size_o   = wb_mem_q ? wb_mem_size_q : 3'd0;
  assign rvfi_mem_addr_o   = wb_mem_q ? wb_mem_addr_q : 32'd0;
  assign rvfi_mem_data_o   = !wb_mem_q ? 32'd0 : (wb_load_q ? lsu_load_raw : wb_mem_wdata_q);
  assign rvfi_trap_o       = wb_trap_q;
  assign rvfi_trap_cause_o = wb_trap_q ? wb_trap_cause_q : 32'd0;
  assign rvfi_intr_o       = wb_intr_q;
  assign rvfi_intr_cause_o = wb_intr_q ? wb_intr_cause_q : 32'd0;

  assign rvfi_br_valid_o      = ex_branch_skip;
  assign rvfi_br_pc_o         = ex_pc_q;
  assign rvfi_br_insn_o       = ex_raw_q;
  assign rvfi_br_next_pc_o    = ex_next_pc;
  assign rvfi_br_intr_o       = ex_intr_q;
  assign rvfi_br_intr_cause_o = ex_intr_q ? ex_intr_cause_q : 32'd0;

  // The debugger's halt: the pipeline is empty (declared here, after the APU's registers).
  assign dbg_drained = !ex_valid_q && !wb_valid_q && !lsu_busy && !apu_active_q;

  // =============================================================================================
  // Unused inputs and assertions
  // =============================================================================================
  logic unused_inputs;
  assign unused_inputs = ^{boot_addr_q[1:0], pulp_clock_en_i, scan_cg_en_i, dm_halt_addr_i, dm_exception_addr_i};

  initial begin : g_param_check
    if (COREV_PULP != 0 || COREV_CLUSTER != 0 || FPU > 1 || ZFINX != 0 ||
        NUM_MHPMCOUNTERS > 29) begin
      $display("rv_core: unsupported parameters (COREV_PULP, COREV_CLUSTER, ZFINX must be 0;",
               " FPU 0 or 1;",
               " NUM_MHPMCOUNTERS <= 29)");
      $stop;
    end
  end

  `RV_ASSERT(CoreRetireOnlyValid, !rvfi_valid_o || wb_valid_q)
  `RV_ASSERT(CoreNoIdAdvanceOnKill, !(kill_id && id_ready))

  logic unused_fpu;
  assign unused_fpu = ^{FPU_ADDMUL_LAT[0], FPU_OTHERS_LAT[0]};

endmodule
