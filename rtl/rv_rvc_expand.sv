// rv_rvc_expand: expands a 16-bit RVC instruction into its 32-bit equivalent (RISC-V
// unprivileged spec, chapter "C" standard extension, RV32 subset; with the FPU the
// single-precision loads and stores).
// 32-bit instructions pass through unchanged. Reserved and double-precision encodings set
// illegal_o; the decoder then raises an illegal-instruction trap with the original bits.
// 32-bit encodings (macros rather than functions: the simulator then builds each result only in
// the case arm that needs it)
`define RVC_I(imm, rs1, f3, rd, opc) {imm, rs1, f3, rd, opc}
`define RVC_R(f7, rs2, rs1, f3, rd, opc) {f7, rs2, rs1, f3, rd, opc}
`define RVC_S(imm, rs2, rs1, f3, opc) {imm[11:5], rs2, rs1, f3, imm[4:0], opc}
`define RVC_B(imm, rs2, rs1, f3) {imm[12], imm[10:5], rs2, rs1, f3, imm[4:1], imm[11], OPC_BRANCH}
`define RVC_J(imm, rd) {imm[20], imm[10:1], imm[11], imm[19:12], rd, OPC_JAL}

module rv_rvc_expand (
  input  logic [31:0] instr_i,         // fetched bits; a 16-bit instruction in [15:0]
  input  logic        fpu_i,           // the core has its FPU: c.flw, c.fsw, c.flwsp, c.fswsp
  output logic [31:0] instr_o,         // 32-bit equivalent
  output logic        is_compressed_o, // instr_i[1:0] != 2'b11
  output logic        illegal_o        // reserved or unsupported compressed encoding
);
  import rv_pkg::*;

  // ---------------------------------------------------------------------------------------------
  // Fields
  // ---------------------------------------------------------------------------------------------
  logic [15:0] c;
  logic [4:0]  rd_full, rs2_full, rd_p, rs2_p;
  logic [11:0] imm6_sext;
  logic [20:0] j_off;
  logic [12:0] b_off;
  logic [11:0] sw_off, swsp_off;

  assign c         = instr_i[15:0];
  assign rd_full   = c[11:7];
  assign rs2_full  = c[6:2];
  assign rd_p      = {2'b01, c[9:7]};
  assign rs2_p     = {2'b01, c[4:2]};
  assign imm6_sext = {{7{c[12]}}, c[6:2]};
  assign j_off     = {{10{c[12]}}, c[8], c[10:9], c[6], c[7], c[2], c[11], c[5:3], 1'b0};
  assign b_off     = {{5{c[12]}}, c[6:5], c[2], c[11:10], c[4:3], 1'b0};
  assign sw_off    = {5'b0, c[5], c[12:10], c[6], 2'b00};
  assign swsp_off  = {4'b0, c[8:7], c[12:9], 2'b00};

  always_comb begin
    instr_o         = instr_i;
    illegal_o       = 1'b0;
    is_compressed_o = (instr_i[1:0] != 2'b11);

    if (instr_i[1:0] != 2'b11) unique case (c[1:0])
      // -------------------------------------------------------------------------------- C0
      2'b00: begin
        unique case (c[15:13])
          3'b000: begin  // c.addi4spn
            instr_o   = `RVC_I({2'b0, c[10:7], c[12:11], c[5], c[6], 2'b00}, 5'd2, 3'b000,
                              rs2_p, OPC_OP_IMM);
            illegal_o = (c[12:5] == 8'b0);
          end
          3'b010: instr_o = `RVC_I({5'b0, c[5], c[12:10], c[6], 2'b00}, rd_p, 3'b010, rs2_p,
                                  OPC_LOAD);  // c.lw
          3'b110: instr_o = `RVC_S(sw_off, rs2_p, rd_p, 3'b010,
                                  OPC_STORE);  // c.sw
          3'b011: begin  // c.flw (FPU only)
            instr_o   = `RVC_I({5'b0, c[5], c[12:10], c[6], 2'b00}, rd_p, 3'b010, rs2_p,
                              OPC_LOAD_FP);
            illegal_o = !fpu_i;
          end
          3'b111: begin  // c.fsw (FPU only)
            instr_o   = `RVC_S(sw_off, rs2_p, rd_p, 3'b010, OPC_STORE_FP);
            illegal_o = !fpu_i;
          end
          default: illegal_o = 1'b1;  // double precision and reserved
        endcase
      end
      // -------------------------------------------------------------------------------- C1
      2'b01: begin
        unique case (c[15:13])
          3'b000: instr_o = `RVC_I(imm6_sext, rd_full, 3'b000, rd_full, OPC_OP_IMM);  // c.addi
          3'b001: instr_o = `RVC_J(j_off, 5'd1);                                     // c.jal
          3'b010: instr_o = `RVC_I(imm6_sext, 5'd0, 3'b000, rd_full, OPC_OP_IMM);     // c.li
          3'b011: begin
            if (rd_full == 5'd2) begin  // c.addi16sp
              instr_o   = `RVC_I({{3{c[12]}}, c[4:3], c[5], c[2], c[6], 4'b0}, 5'd2, 3'b000,
                                5'd2, OPC_OP_IMM);
              illegal_o = ({c[12], c[6:2]} == 6'b0);
            end else begin  // c.lui
              instr_o   = {{15{c[12]}}, c[6:2], rd_full, OPC_LUI};
              illegal_o = ({c[12], c[6:2]} == 6'b0);
            end
          end
          3'b100: begin
            unique case (c[11:10])
              2'b00: begin  // c.srli
                instr_o   = `RVC_R(7'b0000000, c[6:2], rd_p, 3'b101, rd_p, OPC_OP_IMM);
                illegal_o = c[12];
              end
              2'b01: begin  // c.srai
                instr_o   = `RVC_R(7'b0100000, c[6:2], rd_p, 3'b101, rd_p, OPC_OP_IMM);
                illegal_o = c[12];
              end
              2'b10: instr_o = `RVC_I(imm6_sext, rd_p, 3'b111, rd_p, OPC_OP_IMM);  // c.andi
              default: begin
                unique case ({c[12], c[6:5]})
                  3'b000: instr_o = `RVC_R(7'b0100000, rs2_p, rd_p, 3'b000, rd_p, OPC_OP); // sub
                  3'b001: instr_o = `RVC_R(7'b0000000, rs2_p, rd_p, 3'b100, rd_p, OPC_OP); // xor
                  3'b010: instr_o = `RVC_R(7'b0000000, rs2_p, rd_p, 3'b110, rd_p, OPC_OP); // or
                  3'b011: instr_o = `RVC_R(7'b0000000, rs2_p, rd_p, 3'b111, rd_p, OPC_OP); // and
                  default: illegal_o = 1'b1;  // RV64 subw/addw and reserved
                endcase
              end
            endcase
          end
          3'b101: instr_o = `RVC_J(j_off, 5'd0);                   // c.j
          3'b110: instr_o = `RVC_B(b_off, 5'd0, rd_p, 3'b000);     // c.beqz
          default: instr_o = `RVC_B(b_off, 5'd0, rd_p, 3'b001);    // c.bnez
        endcase
      end
      // -------------------------------------------------------------------------------- C2
      2'b10: begin
        unique case (c[15:13])
          3'b000: begin  // c.slli
            instr_o   = `RVC_R(7'b0000000, c[6:2], rd_full, 3'b001, rd_full, OPC_OP_IMM);
            illegal_o = c[12];
          end
          3'b010: begin  // c.lwsp
            instr_o   = `RVC_I({4'b0, c[3:2], c[12], c[6:4], 2'b00}, 5'd2, 3'b010, rd_full,
                              OPC_LOAD);
            illegal_o = (rd_full == 5'd0);
          end
          3'b100: begin
            if (!c[12]) begin
              if (rs2_full == 5'd0) begin  // c.jr
                instr_o   = `RVC_I(12'b0, rd_full, 3'b000, 5'd0, OPC_JALR);
                illegal_o = (rd_full == 5'd0);
              end else begin  // c.mv
                instr_o = `RVC_R(7'b0, rs2_full, 5'd0, 3'b000, rd_full, OPC_OP);
              end
            end else begin
              if (rs2_full == 5'd0) begin
                if (rd_full == 5'd0) begin  // c.ebreak
                  instr_o = 32'h0010_0073;
                end else begin  // c.jalr
                  instr_o = `RVC_I(12'b0, rd_full, 3'b000, 5'd1, OPC_JALR);
                end
              end else begin  // c.add
                instr_o = `RVC_R(7'b0, rs2_full, rd_full, 3'b000, rd_full, OPC_OP);
              end
            end
          end
          3'b110: instr_o = `RVC_S(swsp_off, rs2_full, 5'd2, 3'b010,
                                  OPC_STORE);  // c.swsp
          3'b011: begin  // c.flwsp (FPU only; f0 is a register like any other)
            instr_o   = `RVC_I({4'b0, c[3:2], c[12], c[6:4], 2'b00}, 5'd2, 3'b010, rd_full,
                              OPC_LOAD_FP);
            illegal_o = !fpu_i;
          end
          3'b111: begin  // c.fswsp (FPU only)
            instr_o   = `RVC_S(swsp_off, rs2_full, 5'd2, 3'b010, OPC_STORE_FP);
            illegal_o = !fpu_i;
          end
          default: illegal_o = 1'b1;  // double precision
        endcase
      end
      default: ;  // 32-bit instruction: unchanged
    endcase
  end

endmodule

`undef RVC_I
`undef RVC_R
`undef RVC_S
`undef RVC_B
`undef RVC_J
