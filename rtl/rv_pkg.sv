// rv_pkg: types shared by the modules of the rv_core RISC-V core (RV32IMC, Zicsr, Zifencei,
// machine mode only). The core reproduces the cycle timing of the OpenHW CV32E40P.
package rv_pkg;

  // ---------------------------------------------------------------------------------------------
  // Opcodes (RISC-V unprivileged spec, table "RV32/64G opcode map")
  // ---------------------------------------------------------------------------------------------
  typedef enum logic [6:0] {
    OPC_LOAD     = 7'b0000011,
    OPC_MISC_MEM = 7'b0001111,
    OPC_OP_IMM   = 7'b0010011,
    OPC_AUIPC    = 7'b0010111,
    OPC_STORE    = 7'b0100011,
    OPC_OP       = 7'b0110011,
    OPC_LUI      = 7'b0110111,
    OPC_BRANCH   = 7'b1100011,
    OPC_JALR     = 7'b1100111,
    OPC_JAL      = 7'b1101111,
    OPC_SYSTEM   = 7'b1110011,
    // RV32F (FPU only)
    OPC_LOAD_FP  = 7'b0000111,
    OPC_STORE_FP = 7'b0100111,
    OPC_MADD     = 7'b1000011,
    OPC_MSUB     = 7'b1000111,
    OPC_NMSUB    = 7'b1001011,
    OPC_NMADD    = 7'b1001111,
    OPC_OP_FP    = 7'b1010011
  } opcode_e;

  // ---------------------------------------------------------------------------------------------
  // Decoded instruction
  // ---------------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    UNIT_ALU,   // ALU result, branch compare, link address
    UNIT_MUL,   // mul (1 cycle), mulh/mulhsu/mulhu (5 cycles)
    UNIT_DIV,   // iterative divider
    UNIT_LSU,   // loads and stores
    UNIT_CSR,   // CSR read-modify-write
    UNIT_NONE,  // no EX work (system instructions, traps)
    UNIT_APU    // an F operation, sent to the FPU through the APU dispatcher (rv_fpu)
  } unit_e;

  typedef enum logic [3:0] {
    ALU_ADD, ALU_SUB, ALU_SLL, ALU_SLT, ALU_SLTU, ALU_XOR, ALU_SRL, ALU_SRA, ALU_OR, ALU_AND,
    ALU_EQ, ALU_NE, ALU_GE, ALU_GEU
  } alu_op_e;

  typedef enum logic [1:0] { OPA_RS1, OPA_PC, OPA_ZERO, OPA_ZIMM } opa_sel_e;
  typedef enum logic [1:0] { OPB_RS2, OPB_IMM, OPB_LEN } opb_sel_e;

  // mul: funct3[1:0]; div: funct3[1:0] (div, divu, rem, remu)
  typedef enum logic [1:0] { MD_MUL = 2'd0, MD_MULH = 2'd1, MD_MULHSU = 2'd2, MD_MULHU = 2'd3 } mul_op_e;
  typedef enum logic [1:0] { MD_DIV = 2'd0, MD_DIVU = 2'd1, MD_REM = 2'd2, MD_REMU = 2'd3 } div_op_e;

  typedef enum logic [1:0] { CSR_OP_WRITE = 2'd1, CSR_OP_SET = 2'd2, CSR_OP_CLEAR = 2'd3 } csr_op_e;

  typedef enum logic [1:0] { XFER_NONE, XFER_JAL, XFER_JALR, XFER_BRANCH } xfer_e;

  // Instructions that the controller handles by flushing the pipeline
  typedef enum logic [2:0] {
    SYS_NONE, SYS_ILLEGAL, SYS_ECALL, SYS_EBREAK, SYS_MRET, SYS_WFI, SYS_FENCE, SYS_CSR_STATUS
  } sys_e;

  typedef struct packed {
    unit_e       unit;
    alu_op_e     alu_op;
    logic [1:0]  md_op;       // mul_op_e / div_op_e / csr_op_e by unit
    opa_sel_e    opa_sel;
    opb_sel_e    opb_sel;
    logic [31:0] imm;
    logic        rs1_used;
    logic        rs2_used;
    logic        rd_we;       // written from EX (ALU, mul, div, CSR, link)
    logic        mem_load;
    logic        mem_store;
    logic [1:0]  mem_size;    // 0 byte, 1 halfword, 2 word
    logic        mem_unsigned;
    xfer_e       xfer;
    sys_e        sys;
    logic        csr_write;   // the CSR instruction writes its CSR
  } decode_t;

  // What the decoder tells the FPU's part of the pipeline (all 0 without the FPU). A struct of
  // its own: decode_t stays within 64 bits, which the simulator keeps in one machine word.
  // Register addresses as the CV32E40P's 6-bit ones: x0..x31, then f0..f31.
  typedef struct packed {
    logic        frs1_used;   // reads F register rs1 (rs2, rs3)
    logic        frs2_used;
    logic        frs3_used;
    logic        frs2_apu;    // the APU's dependence check also sees F register rs2 (OP-FP
                              // but fmv: the field names an operand multiplexer's register)
    logic        fdest;       // writes F register rd (flw, F results): no x register
    logic        we6;         // writes a register (x or F, x0 included) from EX or a load
    logic        alu_port;    // writes through the ALU port (regfile_alu_we): not an APU op
    logic [1:0]  apu_class;   // APU latency class: 1 result at the request, 2 a cycle later,
                              // 3 "multicycle" (FPU_*_LAT = 2, fdiv.s, fsqrt.s)
    logic [1:0]  apu_lat;     // cycles from request to result (classes 2 and 3; not div/sqrt)
    logic        apu_divsqrt; // fdiv.s / fsqrt.s: cycles from the operation's operands
  } fp_decode_t;

  // ---------------------------------------------------------------------------------------------
  // Controller
  // ---------------------------------------------------------------------------------------------
  typedef enum logic [3:0] {
    CTRL_RESET, CTRL_BOOT_SET, CTRL_FIRST_FETCH, CTRL_DECODE, CTRL_FLUSH_EX, CTRL_FLUSH_WB,
    CTRL_XRET_JUMP, CTRL_WAIT_SLEEP, CTRL_SLEEP, CTRL_DBG_HALT
  } ctrl_state_e;

  typedef enum logic [2:0] {
    PC_BOOT, PC_JUMP, PC_BRANCH, PC_EXCEPTION, PC_IRQ, PC_MRET, PC_FENCEI, PC_DEBUG
  } pc_sel_e;

  // ---------------------------------------------------------------------------------------------
  // CSR addresses (RISC-V privileged spec 1.11; CV32E40P user manual, "Control and Status
  // Registers")
  // ---------------------------------------------------------------------------------------------
  localparam logic [11:0] CSR_FFLAGS        = 12'h001;  // FPU only
  localparam logic [11:0] CSR_FRM           = 12'h002;
  localparam logic [11:0] CSR_FCSR          = 12'h003;
  localparam logic [11:0] CSR_MSTATUS       = 12'h300;
  localparam logic [11:0] CSR_MISA          = 12'h301;
  localparam logic [11:0] CSR_MIE           = 12'h304;
  localparam logic [11:0] CSR_MTVEC         = 12'h305;
  localparam logic [11:0] CSR_MCOUNTINHIBIT = 12'h320;
  localparam logic [11:0] CSR_MSCRATCH      = 12'h340;
  localparam logic [11:0] CSR_MEPC          = 12'h341;
  localparam logic [11:0] CSR_MCAUSE        = 12'h342;
  localparam logic [11:0] CSR_MTVAL         = 12'h343;
  localparam logic [11:0] CSR_MIP           = 12'h344;
  localparam logic [11:0] CSR_MVENDORID     = 12'hF11;
  localparam logic [11:0] CSR_MARCHID       = 12'hF12;
  localparam logic [11:0] CSR_MIMPID        = 12'hF13;
  localparam logic [11:0] CSR_MHARTID       = 12'hF14;

  localparam logic [31:0] MISA_VALUE      = 32'h4000_1104;  // RV32 I M C
  localparam logic [31:0] MISA_F          = 32'h0000_0020;  // F, with the FPU
  localparam logic [31:0] MVENDORID_VALUE = 32'h0000_0602;  // OpenHW Group
  localparam logic [31:0] MARCHID_VALUE   = 32'h0000_0004;  // CV32E40P

  // Interrupt lines that exist: fast interrupts 31..16, machine external 11, software 3,
  // timer 7.
  localparam logic [31:0] IRQ_MASK = 32'hFFFF_0888;

  // Exception causes
  localparam logic [4:0] EXC_ILLEGAL    = 5'd2;
  localparam logic [4:0] EXC_BREAKPOINT = 5'd3;
  localparam logic [4:0] EXC_ECALL_M    = 5'd11;

  // Performance events (one-hot mhpmevent bit positions)
  localparam int unsigned EV_CYCLES       = 0;
  localparam int unsigned EV_INSTR        = 1;
  localparam int unsigned EV_LD_STALL     = 2;
  localparam int unsigned EV_JMP_STALL    = 3;
  localparam int unsigned EV_IMISS        = 4;
  localparam int unsigned EV_LD           = 5;
  localparam int unsigned EV_ST           = 6;
  localparam int unsigned EV_JUMP         = 7;
  localparam int unsigned EV_BRANCH       = 8;
  localparam int unsigned EV_BRANCH_TAKEN = 9;
  localparam int unsigned EV_COMP_INSTR   = 10;
  localparam int unsigned EV_PIPE_STALL   = 11;
  localparam int unsigned NUM_EVENTS      = 16;

endpackage
