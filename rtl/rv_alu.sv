// rv_alu: the single-cycle ALU of the EX stage: arithmetic, logic, shifts, set-less-than and
// the branch comparisons (a taken branch produces result 1).
module rv_alu (
  input  rv_pkg::alu_op_e op_i,
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  output logic [31:0]     result_o
);
  import rv_pkg::*;

  logic        lt_signed, lt_unsigned;
  logic [4:0]  shamt;

  assign lt_signed   = $signed(a_i) < $signed(b_i);
  assign lt_unsigned = a_i < b_i;
  assign shamt       = b_i[4:0];

  always_comb begin
    unique case (op_i)
      ALU_ADD:  result_o = a_i + b_i;
      ALU_SUB:  result_o = a_i - b_i;
      ALU_SLL:  result_o = a_i << shamt;
      ALU_SLT:  result_o = {31'b0, lt_signed};
      ALU_SLTU: result_o = {31'b0, lt_unsigned};
      ALU_XOR:  result_o = a_i ^ b_i;
      ALU_SRL:  result_o = a_i >> shamt;
      ALU_SRA:  result_o = $unsigned($signed(a_i) >>> shamt);
      ALU_OR:   result_o = a_i | b_i;
      ALU_AND:  result_o = a_i & b_i;
      ALU_EQ:   result_o = {31'b0, a_i == b_i};
      ALU_NE:   result_o = {31'b0, a_i != b_i};
      ALU_GE:   result_o = {31'b0, !lt_signed};
      ALU_GEU:  result_o = {31'b0, !lt_unsigned};
      default:  result_o = '0;
    endcase
  end

endmodule
