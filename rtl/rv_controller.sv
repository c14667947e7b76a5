// rv_controller: the pipeline controller. It decides every change of program flow (boot,
// jumps taken in ID, branches taken in EX, traps, interrupts, mret, fence) and the stalls of
// the special instructions, with the state sequence that gives the CV32E40P's timing:
//
//   DECODE      normal operation; interrupts are taken here (the instruction in ID is
//               killed and becomes mepc). ecall, ebreak, mret, wfi, fence(.i), illegal
//               instructions and "status" CSR accesses stop the fetch and enter EX, then
//   FLUSH_EX    wait until that instruction leaves EX,
//   FLUSH_WB    trap entry (exceptions), mret's mstatus restore, fence refetch, or sleep,
//   XRET_JUMP   mret jumps to mepc,
//   WAIT_SLEEP, SLEEP   wfi: sleep (core_sleep_o) until an interrupt is pending and enabled
//               in mie; FIRST_FETCH then takes it if mstatus.MIE is set.
//   DBG_HALT    a debugger's halt (debug_halt_i, taken in DECODE like an interrupt: the
//               instruction in ID is killed, the older ones complete): no instruction enters ID
//               until debug_resume_i, which refetches from the debugger's pc (PC_DEBUG).
// A status CSR access costs 4 cycles, ecall 4, mret 5, fence 4, wfi with a pending interrupt 6.
module rv_controller (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              fetch_enable_i,
  // ID stage
  input  logic              id_valid_i,       // an instruction is in ID
  input  rv_pkg::sys_e      id_sys_i,
  input  logic              id_csr_i,         // the ID instruction is a CSR access
  input  rv_pkg::xfer_e     id_xfer_i,
  input  logic              jr_stall_i,
  input  logic              id_ready_i,       // the ID instruction enters EX (next state only)
  input  logic [31:0]       id_pc_i,
  input  logic [31:0]       if_pc_i,          // address of the next instruction in IF
  // EX stage
  input  logic              branch_taken_ex_i,
  input  logic              ex_ready_i,       // EX is free at the end of this cycle (next state)
  // interrupts
  input  logic              irq_req_i,
  input  logic              irq_wakeup_i,
  input  logic [4:0]        irq_id_i,
  // debugger (rv_core.sv): halt before the ID instruction; in DBG_HALT, resume
  input  logic              debug_halt_i,
  input  logic              debug_resume_i,
  // control
  output logic              fetch_req_o,      // fetching enabled
  output logic              pc_set_o,
  output rv_pkg::pc_sel_e   pc_sel_o,
  output logic [31:0]       flush_pc_o,       // pc of the flushing instruction
  output logic              halt_if_o,        // no instruction enters ID
  output logic              halt_id_o,        // the ID instruction does not enter EX
  output logic              is_decoding_o,
  output logic              in_decode_o,      // the state machine is in DECODE (FPU hazards)
  output logic              kill_id_o,        // drop the instruction in ID
  output logic              mtvec_init_o,
  output logic              csr_save_o,
  output logic              csr_save_irq_o,
  output logic [4:0]        csr_save_cause_o,
  output logic [31:0]       csr_save_epc_o,
  output logic              csr_mret_o,
  output logic              irq_ack_o,
  output logic [4:0]        irq_ack_id_o,
  output logic              sleeping_o,       // the controller is idle in WFI (may sleep)
  output logic              debug_havereset_o,
  output logic              debug_running_o,
  output logic              debug_mode_o      // in DBG_HALT
);
  import rv_pkg::*;

  ctrl_state_e state_d, state_q;
  sys_e        flush_sys_d, flush_sys_q;
  ctrl_state_e state_prev_q;  // state of the previous cycle

  assign in_decode_o = state_q == CTRL_DECODE;
  logic        flush_csr_d, flush_csr_q;
  logic [31:0] flush_pc_d, flush_pc_q;
  logic        jump_done_d, jump_done_q;
  logic        havereset_d, havereset_q;

  assign flush_pc_o = flush_pc_q;

  // Outputs of this cycle. They do not depend on id_ready_i / ex_ready_i (which depend on the
  // bus responses of this cycle), so the simulator evaluates them once per cycle.
  always_comb begin
    fetch_req_o      = 1'b1;
    pc_set_o         = 1'b0;
    pc_sel_o         = PC_BOOT;
    halt_if_o        = 1'b0;
    halt_id_o        = 1'b0;
    is_decoding_o    = 1'b0;
    kill_id_o        = 1'b0;
    mtvec_init_o     = 1'b0;
    csr_save_o       = 1'b0;
    csr_save_irq_o   = 1'b0;
    csr_save_cause_o = '0;
    csr_save_epc_o   = id_pc_i;
    csr_mret_o       = 1'b0;
    irq_ack_o        = 1'b0;
    sleeping_o       = 1'b0;

    unique case (state_q)
      CTRL_RESET: begin
        fetch_req_o = 1'b0;
        halt_if_o   = 1'b1;
        halt_id_o   = 1'b1;
      end

      CTRL_BOOT_SET: begin
        halt_if_o    = 1'b1;
        halt_id_o    = 1'b1;
        pc_set_o     = 1'b1;
        pc_sel_o     = PC_BOOT;
        mtvec_init_o = 1'b1;
      end

      CTRL_FIRST_FETCH: begin
        if (irq_req_i) begin
          halt_if_o        = 1'b1;
          halt_id_o        = 1'b1;
          pc_set_o         = 1'b1;
          pc_sel_o         = PC_IRQ;
          irq_ack_o        = 1'b1;
          csr_save_o       = 1'b1;
          csr_save_irq_o   = 1'b1;
          csr_save_cause_o = irq_id_i;
          csr_save_epc_o   = if_pc_i;
        end
      end

      CTRL_DECODE: begin
        if (branch_taken_ex_i) begin
          pc_set_o  = 1'b1;
          pc_sel_o  = PC_BRANCH;
          kill_id_o = 1'b1;
        end else if (id_valid_i) begin
          if (irq_req_i) begin
            halt_if_o        = 1'b1;
            halt_id_o        = 1'b1;
            kill_id_o        = 1'b1;
            pc_set_o         = 1'b1;
            pc_sel_o         = PC_IRQ;
            irq_ack_o        = 1'b1;
            csr_save_o       = 1'b1;
            csr_save_irq_o   = 1'b1;
            csr_save_cause_o = irq_id_i;
            csr_save_epc_o   = id_pc_i;
          end else if (debug_halt_i) begin
            halt_if_o = 1'b1;
            halt_id_o = 1'b1;
            kill_id_o = 1'b1;
          end else begin
            is_decoding_o = 1'b1;
            if (id_sys_i != SYS_NONE) begin
              halt_if_o = 1'b1;
            end else if ((id_xfer_i == XFER_JAL || id_xfer_i == XFER_JALR) && !jr_stall_i &&
                         !jump_done_q) begin
              pc_set_o = 1'b1;
              pc_sel_o = PC_JUMP;
            end
          end
        end
      end

      CTRL_FLUSH_EX: begin
        halt_if_o = 1'b1;
        halt_id_o = 1'b1;
      end

      CTRL_FLUSH_WB: begin
        halt_if_o      = 1'b1;
        halt_id_o      = 1'b1;
        csr_save_epc_o = flush_pc_q;
        unique case (flush_sys_q)
          SYS_ILLEGAL, SYS_ECALL, SYS_EBREAK: begin
            pc_set_o         = 1'b1;
            pc_sel_o         = PC_EXCEPTION;
            csr_save_o       = 1'b1;
            csr_save_cause_o = (flush_sys_q == SYS_ILLEGAL) ? EXC_ILLEGAL :
                               (flush_sys_q == SYS_ECALL) ? EXC_ECALL_M : EXC_BREAKPOINT;
          end
          SYS_MRET: csr_mret_o = 1'b1;
          SYS_FENCE: begin
            pc_set_o = 1'b1;
            pc_sel_o = PC_FENCEI;
          end
          default: ;  // wfi, status CSR access
        endcase
      end

      CTRL_XRET_JUMP: begin
        halt_id_o = 1'b1;
        pc_set_o  = 1'b1;
        pc_sel_o  = PC_MRET;
      end

      CTRL_DBG_HALT: begin
        halt_if_o = !debug_resume_i;
        halt_id_o = 1'b1;
        pc_set_o  = debug_resume_i;
        pc_sel_o  = PC_DEBUG;
      end

      CTRL_WAIT_SLEEP: begin
        halt_if_o  = 1'b1;
        halt_id_o  = 1'b1;
        sleeping_o = 1'b1;
      end

      CTRL_SLEEP: begin
        halt_if_o  = 1'b1;
        halt_id_o  = 1'b1;
        sleeping_o = !irq_wakeup_i;
      end

      default: ;
    endcase
  end

  // Next state
  always_comb begin
    state_d     = state_q;
    flush_sys_d = flush_sys_q;
    flush_csr_d = flush_csr_q;
    flush_pc_d  = flush_pc_q;
    jump_done_d = 1'b0;
    havereset_d = havereset_q;

    unique case (state_q)
      CTRL_RESET:       if (fetch_enable_i) state_d = CTRL_BOOT_SET;
      CTRL_BOOT_SET: begin
        havereset_d = 1'b0;
        state_d     = CTRL_FIRST_FETCH;
      end
      CTRL_FIRST_FETCH: state_d = CTRL_DECODE;
      CTRL_DECODE: begin
        if (debug_halt_i && !branch_taken_ex_i && id_valid_i && !irq_req_i) begin
          state_d = CTRL_DBG_HALT;
        end else if (is_decoding_o) begin
          if (id_sys_i != SYS_NONE) begin
            if (id_ready_i) begin
              state_d     = CTRL_FLUSH_EX;
              flush_sys_d = id_sys_i;
              flush_csr_d = id_csr_i;
              flush_pc_d  = id_pc_i;
            end
          end else if (pc_set_o) begin
            jump_done_d = !id_ready_i;  // the jump is taken; its instruction may stay in ID
          end else begin
            jump_done_d = jump_done_q && !id_ready_i;
          end
        end
      end
      // An illegal instruction reaches EX with every unit disabled, so EX reports no valid
      // result in its cycle there: the CV32E40P's FLUSH_EX then waits one cycle more. An
      // illegal CSR access keeps its CSR unit enabled and does not wait.
      CTRL_FLUSH_EX:
        if (ex_ready_i && !(flush_sys_q == SYS_ILLEGAL && !flush_csr_q &&
                            state_prev_q == CTRL_DECODE)) begin
          state_d = CTRL_FLUSH_WB;
        end
      CTRL_FLUSH_WB: begin
        unique case (flush_sys_q)
          SYS_MRET: state_d = CTRL_XRET_JUMP;
          SYS_WFI:  state_d = CTRL_WAIT_SLEEP;
          default:  state_d = CTRL_DECODE;
        endcase
      end
      CTRL_XRET_JUMP:   state_d = CTRL_DECODE;
      CTRL_DBG_HALT:    if (debug_resume_i) state_d = CTRL_DECODE;
      CTRL_WAIT_SLEEP:  state_d = CTRL_SLEEP;
      CTRL_SLEEP:       if (irq_wakeup_i) state_d = CTRL_FIRST_FETCH;
      default:          state_d = CTRL_RESET;
    endcase
  end

  assign irq_ack_id_o      = irq_id_i;
  assign debug_havereset_o = havereset_q;
  assign debug_running_o   = (state_q != CTRL_RESET);
  assign debug_mode_o      = (state_q == CTRL_DBG_HALT);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= CTRL_RESET;
      state_prev_q <= CTRL_RESET;
      flush_csr_q  <= 1'b0;
      flush_sys_q <= SYS_NONE;
      flush_pc_q  <= '0;
      jump_done_q <= 1'b0;
      havereset_q <= 1'b1;
    end else begin
      state_q     <= state_d;
      state_prev_q <= state_q;
      flush_csr_q  <= flush_csr_d;
      flush_sys_q <= flush_sys_d;
      flush_pc_q  <= flush_pc_d;
      jump_done_q <= jump_done_d;
      havereset_q <= havereset_d;
    end
  end

endmodule
