// Testbench (for Verilator) of the exported sponge engine. Replays the requests
// of vectors.hex with the same clock-by-clock driving as the rust-hdl
// harness (hdl/src/keccak/harness.rs, full-speed streams) and writes what the
// engine did to results.txt, so the Rust test can compare both runs.
//
// vectors.hex: request count, then per request: op, arg0, arg1, arg2,
// word count, index of the TLAST word (ffffffff: none), the words.
// results.txt: per request "error cycles consumed out_words out_last_at"
// (out_last_at -1: none), then the output words in hex.
module sponge_tb;
  localparam integer VEC_WORDS = 1 << 20;
  localparam integer MAX_OUT = 1 << 16;
  localparam integer MAX_CYCLES = 1 << 20;

  reg clock = 0;
  reg start = 0;
  reg [7:0] op = 0;
  reg [31:0] arg0 = 0, arg1 = 0, arg2 = 0;
  wire busy, done, error;
  wire [31:0] core_config;
  reg [31:0] in_data = 0;
  reg in_valid = 0, in_last = 0;
  wire in_ready;
  wire [31:0] out_data;
  wire out_valid, out_last;
  reg out_ready = 0;

  `DUT dut (
    .clock(clock), .reset(1'b0), .start(start), .op(op), .arg0(arg0), .arg1(arg1), .arg2(arg2),
    .busy(busy), .done(done), .error(error), .core_config(core_config),
    .in_data(in_data), .in_valid(in_valid), .in_last(in_last), .in_ready(in_ready),
    .out_data(out_data), .out_valid(out_valid), .out_last(out_last), .out_ready(out_ready)
  );

  always #5 clock = ~clock;

  reg [31:0] vec [0:VEC_WORDS-1];
  reg [31:0] outbuf [0:MAX_OUT-1];
  integer fd, p, r, k, nreq, nwords, last_at, consumed, cycles, nout, out_last_at;

  initial begin
    $readmemh("vectors.hex", vec);
    fd = $fopen("results.txt", "w");
    nreq = vec[0];
    p = 1;
    for (r = 0; r < nreq; r = r + 1) begin
      @(negedge clock);
      op = vec[p][7:0];
      arg0 = vec[p + 1];
      arg1 = vec[p + 2];
      arg2 = vec[p + 3];
      nwords = vec[p + 4];
      last_at = vec[p + 5];
      p = p + 6;
      start = 1;
      in_valid = 0;
      out_ready = 0;
      @(posedge clock);
      @(negedge clock);
      start = 0;
      cycles = 1;
      consumed = 0;
      nout = 0;
      out_last_at = -1;
      while (!done) begin
        if (cycles > MAX_CYCLES) begin
          $fwrite(fd, "timeout\n");
          $fclose(fd);
          $finish;
        end
        in_valid = consumed < nwords;
        in_data = consumed < nwords ? vec[p + consumed] : 0;
        in_last = last_at == consumed;
        out_ready = 1;
        #1;
        if (in_valid && in_ready) consumed = consumed + 1;
        if (out_valid && out_ready) begin
          if (out_last) out_last_at = nout;
          outbuf[nout] = out_data;
          nout = nout + 1;
        end
        @(posedge clock);
        @(negedge clock);
        cycles = cycles + 1;
      end
      in_valid = 0;
      out_ready = 0;
      p = p + nwords;
      $fwrite(fd, "%0d %0d %0d %0d %0d\n", error, cycles, consumed, nout, out_last_at);
      for (k = 0; k < nout; k = k + 1) $fwrite(fd, "%08x\n", outbuf[k]);
    end
    $fclose(fd);
    $finish;
  end
endmodule
