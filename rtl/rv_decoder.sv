// rv_decoder: decodes one 32-bit (possibly expanded RVC) instruction in the ID stage into the
// control fields of rv_pkg::decode_t (and, for the FPU, rv_pkg::fp_decode_t). Everything outside
// RV32IMC + Zicsr + Zifencei in machine mode (and RV32F, with the FPU while mstatus.FS is not
// Off) decodes as illegal (sys = SYS_ILLEGAL, no side effects).
//
// CSR accesses that the CV32E40P treats as "status" accesses (they flush the pipeline and cost
// 4 cycles) decode with sys = SYS_CSR_STATUS: mstatus, mepc, mtvec, mcause, all counters and
// their user shadows, mcountinhibit, mhpmevent3..31 and the debug CSRs.
module rv_decoder (
  input  logic [31:0]      instr_i,         // expanded instruction
  input  logic             illegal_c_i,     // reserved compressed encoding
  // the FPU (rv_fpu.sv): present, mstatus.FS not Off, fcsr.frm, the latency parameters
  input  logic             fpu_i,
  input  logic             fs_on_i,
  input  logic             zfinx_i,   // ZFINX: F operands and results in the x registers
  input  logic [2:0]       frm_i,
  input  logic [1:0]       addmul_lat_i,
  input  logic [1:0]       others_lat_i,
  output rv_pkg::decode_t  dec_o,
  output rv_pkg::fp_decode_t fdec_o
);
  import rv_pkg::*;

  // ---------------------------------------------------------------------------------------------
  // CSR address classification
  // ---------------------------------------------------------------------------------------------
  function automatic logic is_counter(logic [11:0] a);
    // mcycle(h), minstret(h), mhpmcounter3..31(h) and the user read-only shadows
    return (a[11:8] == 4'hB || a[11:8] == 4'hC) && (a[7:5] == 3'b000 || a[7:5] == 3'b100) &&
           (a[4:0] != 5'd1);  // no time/timeh, no mcounteren-like hole
  endfunction

  // The debug CSRs (dcsr, dpc, dscratch0/1) exist only in debug mode, which this core does not
  // enter: outside it the CV32E40P decodes them as illegal.
  function automatic logic csr_exists(logic [11:0] a);
    logic ok;
    ok = is_counter(a) || (a >= 12'h323 && a <= 12'h33F) || (a >= 12'h7A0 && a <= 12'h7AA);
    unique case (a)
      CSR_MSTATUS, CSR_MISA, CSR_MIE, CSR_MTVEC, CSR_MCOUNTINHIBIT, CSR_MSCRATCH, CSR_MEPC,
      CSR_MCAUSE, CSR_MTVAL, CSR_MIP, CSR_MVENDORID, CSR_MARCHID, CSR_MIMPID,
      CSR_MHARTID: ok = 1'b1;
      default: ;
    endcase
    return ok;
  endfunction

  function automatic logic csr_is_status(logic [11:0] a);
    logic st;
    st = is_counter(a) || (a >= 12'h323 && a <= 12'h33F);
    unique case (a)
      CSR_MSTATUS, CSR_MEPC, CSR_MTVEC, CSR_MCAUSE, CSR_MCOUNTINHIBIT: st = 1'b1;
      default: ;
    endcase
    return st;
  endfunction

  // fflags, frm and fcsr exist with the FPU while mstatus.FS is not Off.
  function automatic logic is_fp_csr(logic [11:0] a);
    return a == CSR_FFLAGS || a == CSR_FRM || a == CSR_FCSR;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Fields and immediates
  // ---------------------------------------------------------------------------------------------
  logic [6:0]  opcode, funct7;
  logic [2:0]  funct3;
  logic [4:0]  rs1;
  logic [11:0] csr_addr;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode   = instr_i[6:0];
  assign funct3   = instr_i[14:12];
  assign funct7   = instr_i[31:25];
  assign rs1      = instr_i[19:15];
  assign csr_addr = instr_i[31:20];
  assign imm_i    = {{20{instr_i[31]}}, instr_i[31:20]};
  assign imm_s    = {{20{instr_i[31]}}, instr_i[31:25], instr_i[11:7]};
  assign imm_b    = {{19{instr_i[31]}}, instr_i[31], instr_i[7], instr_i[30:25], instr_i[11:8],
                     1'b0};
  assign imm_u    = {instr_i[31:12], 12'b0};
  assign imm_j    = {{11{instr_i[31]}}, instr_i[31], instr_i[19:12], instr_i[20],
                     instr_i[30:21], 1'b0};

  logic illegal;
  logic fp_legal;    // F instructions may decode (FPU present, FS not Off)
  logic fp_rounds;   // the instruction has an rm field (checked below)
  logic [1:0] fp_group;  // 0 ADDMUL, 1 NONCOMP/CONV, 2 DIVSQRT
  assign fp_legal = fpu_i && (fs_on_i || zfinx_i);  // (Zfinx: mstatus.FS is not used)

  // An F operation for the APU: its latency class and cycles from the group's latency.
  function automatic void fp_op(inout rv_pkg::decode_t d, inout rv_pkg::fp_decode_t f,
                                input logic [1:0] group, input logic [1:0] addmul_lat,
                                input logic [1:0] others_lat);
    logic [1:0] lat;
    lat           = (group == 2'd0) ? addmul_lat : others_lat;
    d.unit        = UNIT_APU;
    f.apu_divsqrt = (group == 2'd2);
    f.apu_class   = (group == 2'd2 || lat >= 2'd2) ? 2'd3 : lat + 2'd1;
    f.apu_lat     = (group == 2'd2) ? 2'd0 : lat;
  endfunction

  always_comb begin
    dec_o              = '0;
    fdec_o             = '0;
    dec_o.unit         = UNIT_ALU;
    dec_o.alu_op       = ALU_ADD;
    dec_o.opa_sel      = OPA_RS1;
    dec_o.opb_sel      = OPB_IMM;
    dec_o.xfer         = XFER_NONE;
    dec_o.sys          = SYS_NONE;
    illegal            = 1'b0;
    fp_rounds          = 1'b0;
    fp_group           = 2'd1;

    unique case (opcode)
      OPC_LUI: begin
        dec_o.opa_sel = OPA_ZERO;
        dec_o.imm     = imm_u;
        dec_o.rd_we   = 1'b1;
      end
      OPC_AUIPC: begin
        dec_o.opa_sel = OPA_PC;
        dec_o.imm     = imm_u;
        dec_o.rd_we   = 1'b1;
      end
      OPC_JAL: begin
        dec_o.opa_sel = OPA_PC;
        dec_o.opb_sel = OPB_LEN;
        dec_o.imm     = imm_j;
        dec_o.rd_we   = 1'b1;
        dec_o.xfer    = XFER_JAL;
      end
      OPC_JALR: begin
        dec_o.opa_sel  = OPA_PC;
        dec_o.opb_sel  = OPB_LEN;
        dec_o.imm      = imm_i;
        dec_o.rd_we    = 1'b1;
        dec_o.rs1_used = 1'b1;
        dec_o.xfer     = XFER_JALR;
        illegal        = (funct3 != 3'b000);
      end
      OPC_BRANCH: begin
        dec_o.opb_sel  = OPB_RS2;
        dec_o.imm      = imm_b;
        dec_o.rs1_used = 1'b1;
        dec_o.rs2_used = 1'b1;
        dec_o.xfer     = XFER_BRANCH;
        unique case (funct3)
          3'b000: dec_o.alu_op = ALU_EQ;
          3'b001: dec_o.alu_op = ALU_NE;
          3'b100: dec_o.alu_op = ALU_SLT;
          3'b101: dec_o.alu_op = ALU_GE;
          3'b110: dec_o.alu_op = ALU_SLTU;
          3'b111: dec_o.alu_op = ALU_GEU;
          default: illegal = 1'b1;
        endcase
      end
      OPC_LOAD: begin
        dec_o.unit         = UNIT_LSU;
        dec_o.imm          = imm_i;
        dec_o.rs1_used     = 1'b1;
        dec_o.mem_load     = 1'b1;
        dec_o.mem_size     = funct3[1:0];
        dec_o.mem_unsigned = funct3[2];
        illegal            = (funct3 == 3'b011) || (funct3 == 3'b110) || (funct3 == 3'b111);
      end
      OPC_STORE: begin
        dec_o.unit      = UNIT_LSU;
        dec_o.imm       = imm_s;
        dec_o.rs1_used  = 1'b1;
        dec_o.rs2_used  = 1'b1;
        dec_o.mem_store = 1'b1;
        dec_o.mem_size  = funct3[1:0];
        illegal         = funct3[2] || (funct3[1:0] == 2'b11);
      end
      OPC_OP_IMM: begin
        dec_o.imm      = imm_i;
        dec_o.rs1_used = 1'b1;
        dec_o.rd_we    = 1'b1;
        unique case (funct3)
          3'b000: dec_o.alu_op = ALU_ADD;
          3'b010: dec_o.alu_op = ALU_SLT;
          3'b011: dec_o.alu_op = ALU_SLTU;
          3'b100: dec_o.alu_op = ALU_XOR;
          3'b110: dec_o.alu_op = ALU_OR;
          3'b111: dec_o.alu_op = ALU_AND;
          3'b001: begin
            dec_o.alu_op = ALU_SLL;
            illegal      = (funct7 != 7'b0);
          end
          default: begin  // 3'b101
            dec_o.alu_op = funct7[5] ? ALU_SRA : ALU_SRL;
            illegal      = ({funct7[6], funct7[4:0]} != 6'b0);
          end
        endcase
      end
      OPC_OP: begin
        dec_o.opb_sel  = OPB_RS2;
        dec_o.rs1_used = 1'b1;
        dec_o.rs2_used = 1'b1;
        dec_o.rd_we    = 1'b1;
        unique case (funct7)
          7'b000_0000: begin
            unique case (funct3)
              3'b000: dec_o.alu_op = ALU_ADD;
              3'b001: dec_o.alu_op = ALU_SLL;
              3'b010: dec_o.alu_op = ALU_SLT;
              3'b011: dec_o.alu_op = ALU_SLTU;
              3'b100: dec_o.alu_op = ALU_XOR;
              3'b101: dec_o.alu_op = ALU_SRL;
              3'b110: dec_o.alu_op = ALU_OR;
              default: dec_o.alu_op = ALU_AND;
            endcase
          end
          7'b010_0000: begin
            unique case (funct3)
              3'b000: dec_o.alu_op = ALU_SUB;
              3'b101: dec_o.alu_op = ALU_SRA;
              default: illegal = 1'b1;
            endcase
          end
          7'b000_0001: begin
            dec_o.unit  = funct3[2] ? UNIT_DIV : UNIT_MUL;
            dec_o.md_op = funct3[1:0];
          end
          default: illegal = 1'b1;
        endcase
      end
      OPC_MISC_MEM: begin
        // fence and fence.i are decoded alike: both flush the pipeline and refetch.
        dec_o.unit = UNIT_NONE;
        dec_o.sys  = SYS_FENCE;
        illegal    = (funct3[2:1] != 2'b00);
      end
      OPC_SYSTEM: begin
        if (funct3 == 3'b000) begin
          dec_o.unit = UNIT_NONE;
          unique case (instr_i)
            32'h0000_0073: dec_o.sys = SYS_ECALL;
            32'h0010_0073: dec_o.sys = SYS_EBREAK;
            32'h3020_0073: dec_o.sys = SYS_MRET;
            32'h1050_0073: dec_o.sys = SYS_WFI;
            default: illegal = 1'b1;
          endcase
        end else if (funct3 == 3'b100) begin
          illegal = 1'b1;
        end else begin
          dec_o.unit      = UNIT_CSR;
          dec_o.md_op     = funct3[1:0];
          dec_o.opa_sel   = funct3[2] ? OPA_ZIMM : OPA_RS1;
          dec_o.rs1_used  = !funct3[2];
          dec_o.rd_we     = 1'b1;
          // csrrs/csrrc with rs1 = x0 (or zimm = 0) only read
          dec_o.csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);
          // a write of frm or fcsr (not fflags) flushes like a status CSR
          dec_o.sys       = (csr_is_status(csr_addr) ||
                             (dec_o.csr_write && (csr_addr == CSR_FRM || csr_addr == CSR_FCSR)))
                                ? SYS_CSR_STATUS : SYS_NONE;
          illegal         = is_fp_csr(csr_addr) ? !fp_legal :
                            (!csr_exists(csr_addr) ||
                             (dec_o.csr_write && csr_addr[11:10] == 2'b11));
        end
      end
      // ------------------------------------------------------------------------------- RV32F
      OPC_LOAD_FP: begin  // flw
        dec_o.unit     = UNIT_LSU;
        dec_o.imm      = imm_i;
        dec_o.rs1_used = 1'b1;
        dec_o.mem_load = 1'b1;
        dec_o.mem_size = 2'd2;
        fdec_o.fdest    = 1'b1;
        illegal        = !fp_legal || zfinx_i || funct3 != 3'b010;
      end
      OPC_STORE_FP: begin  // fsw
        dec_o.unit      = UNIT_LSU;
        dec_o.imm       = imm_s;
        dec_o.rs1_used  = 1'b1;
        fdec_o.frs2_used = 1'b1;
        dec_o.mem_store = 1'b1;
        dec_o.mem_size  = 2'd2;
        illegal         = !fp_legal || zfinx_i || funct3 != 3'b010;
      end
      OPC_MADD, OPC_MSUB, OPC_NMSUB, OPC_NMADD: begin
        fdec_o.frs1_used = 1'b1;
        fdec_o.frs2_used = 1'b1;
        fdec_o.frs3_used = 1'b1;
        fdec_o.fdest     = 1'b1;
        fp_rounds       = 1'b1;
        fp_group        = 2'd0;
        fp_op(dec_o, fdec_o, 2'd0, addmul_lat_i, others_lat_i);
        illegal         = !fp_legal || instr_i[26:25] != 2'b00;
      end
      OPC_OP_FP: begin
        fdec_o.frs2_apu = 1'b1;
        illegal        = !fp_legal;
        unique case (funct7)
          7'b000_0000, 7'b000_0100, 7'b000_1000: begin  // fadd, fsub, fmul
            fdec_o.frs1_used = 1'b1;
            fdec_o.frs2_used = 1'b1;
            fdec_o.fdest     = 1'b1;
            fp_rounds       = 1'b1;
            fp_group        = 2'd0;
          end
          7'b000_1100: begin  // fdiv
            fdec_o.frs1_used = 1'b1;
            fdec_o.frs2_used = 1'b1;
            fdec_o.fdest     = 1'b1;
            fp_rounds       = 1'b1;
            fp_group        = 2'd2;
          end
          7'b010_1100: begin  // fsqrt
            fdec_o.frs1_used = 1'b1;
            fdec_o.fdest     = 1'b1;
            fp_rounds       = 1'b1;
            fp_group        = 2'd2;
            if (instr_i[24:20] != 5'd0) illegal = 1'b1;
          end
          7'b001_0000: begin  // fsgnj, fsgnjn, fsgnjx
            fdec_o.frs1_used = 1'b1;
            fdec_o.frs2_used = 1'b1;
            fdec_o.fdest     = 1'b1;
            if (funct3 > 3'b010) illegal = 1'b1;
          end
          7'b001_0100: begin  // fmin, fmax
            fdec_o.frs1_used = 1'b1;
            fdec_o.frs2_used = 1'b1;
            fdec_o.fdest     = 1'b1;
            if (funct3 > 3'b001) illegal = 1'b1;
          end
          7'b110_0000: begin  // fcvt.w.s, fcvt.wu.s
            fdec_o.frs1_used = 1'b1;
            dec_o.rd_we     = 1'b1;
            fp_rounds       = 1'b1;
            if (instr_i[24:21] != 4'd0) illegal = 1'b1;
          end
          7'b111_0000: begin  // fmv.x.w (funct3 0), fclass.s (1)
            fdec_o.frs1_used = 1'b1;
            dec_o.rd_we     = 1'b1;
            fdec_o.frs2_apu  = funct3[0];
            if (funct3 > 3'b001 || instr_i[24:20] != 5'd0 || (zfinx_i && !funct3[0]))
              illegal = 1'b1;
          end
          7'b101_0000: begin  // fle (0), flt (1), feq (2)
            fdec_o.frs1_used = 1'b1;
            fdec_o.frs2_used = 1'b1;
            dec_o.rd_we     = 1'b1;
            if (funct3 > 3'b010) illegal = 1'b1;
          end
          7'b110_1000: begin  // fcvt.s.w, fcvt.s.wu
            dec_o.rs1_used = 1'b1;
            fdec_o.fdest    = 1'b1;
            fp_rounds      = 1'b1;
            if (instr_i[24:21] != 4'd0) illegal = 1'b1;
          end
          7'b111_1000: begin  // fmv.w.x
            dec_o.rs1_used = 1'b1;
            fdec_o.fdest    = 1'b1;
            fdec_o.frs2_apu = 1'b0;
            if (funct3 != 3'b000 || instr_i[24:20] != 5'd0 || zfinx_i) illegal = 1'b1;
          end
          default: illegal = 1'b1;
        endcase
        fp_op(dec_o, fdec_o, fp_group, addmul_lat_i, others_lat_i);
      end
      default: illegal = 1'b1;
    endcase

    // rm 5 and 6 are reserved; 7 (dynamic) needs one of the five modes in frm.
    if (fp_rounds && (funct3 == 3'b101 || funct3 == 3'b110 || (funct3 == 3'b111 && frm_i > 3'd4)))
      illegal = 1'b1;

    // Zfinx: an F result goes to x rd (through the dispatcher, not the ALU port).
    if (zfinx_i && fdec_o.fdest) begin
      fdec_o.fdest = 1'b0;
      dec_o.rd_we  = 1'b1;
    end

    // Which registers it writes, as the CV32E40P's 6-bit addresses, and through which port (a
    // status CSR access writes its rd through the ALU port like any CSR instruction).
    fdec_o.we6      = (dec_o.sys == SYS_NONE || dec_o.sys == SYS_CSR_STATUS) &&
                      (fdec_o.fdest || dec_o.rd_we || dec_o.mem_load);
    fdec_o.alu_port = (dec_o.sys == SYS_NONE || dec_o.sys == SYS_CSR_STATUS) && dec_o.rd_we &&
                      dec_o.unit != UNIT_APU;

    if (illegal || illegal_c_i) begin
      fdec_o          = '0;
      dec_o           = '0;
      dec_o.unit      = UNIT_NONE;
      dec_o.alu_op    = ALU_ADD;
      dec_o.opa_sel   = OPA_RS1;
      dec_o.opb_sel   = OPB_IMM;
      dec_o.xfer      = XFER_NONE;
      dec_o.sys       = SYS_ILLEGAL;
    end
  end

endmodule
