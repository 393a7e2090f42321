// C ABI over one Verilated PL top (`hdl::verilated`): the same clocking and
// AXI4-Lite handshakes as `hdl::axi::AccelBench`, clock for clock, with the
// stream queues on this side so runs of clocks need no call per clock.
//
// Compiled by hdl::verilated::library with: -DPQC_ADDR_MASK, -DPQC_AXI_LIMIT,
// -DPQC_TRACE (0/1) and the generated "ports.h" (PQC_HAS_* for the optional
// ports the exported top has).
#include <cstdint>
#include <deque>
#include "Vtop.h"
#include "verilated.h"
#include "ports.h"
#if PQC_TRACE
#include "verilated_vcd_c.h"
#endif

#define PQC_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// Same layout as `hdl::axi::StreamWord` (#[repr(C)]).
struct Word {
  uint32_t data;
  bool last;
};

struct Model {
  VerilatedContext ctx;
  Vtop* top;
  uint64_t cycles = 0;
  std::deque<Word> in_q;
  std::deque<Word> out_q;
  bool sink_ready = true;
#if PQC_TRACE
  VerilatedVcdC* vcd = nullptr;
#endif

  Model() {
#if PQC_TRACE
    ctx.traceEverOn(true);
#endif
    top = new Vtop{&ctx, "top"};
  }
  ~Model() {
#if PQC_TRACE
    if (vcd) {
      vcd->close();
      delete vcd;
    }
#endif
    top->final();
    delete top;
  }

  // VCD time in ns: 10 per clock, the rising edge at +5.
  void dump(uint64_t half) {
#if PQC_TRACE
    if (vcd) vcd->dump(cycles * 10 + half);
#else
    (void)half;
#endif
  }

  // Settles the inputs just set (the falling edge of the previous clock is
  // folded in: the tops have no falling-edge logic).
  void settle() {
    top->aclk = 0;
    top->eval();
  }

  // Rising edge; `cycles` counts them, as rust-hdl's bench does.
  void rise() {
    dump(0);
    top->aclk = 1;
    top->eval();
    dump(5);
    cycles++;
  }

  // AccelBench::clock: offer the input front, take an output word if
  // sink_ready, sample both handshakes, then the edge.
  void clock_once() {
    bool offer = !in_q.empty();
    top->s_axis_tvalid = offer;
    top->s_axis_tdata = offer ? in_q.front().data : 0;
    top->s_axis_tlast = offer ? in_q.front().last : 0;
#if PQC_HAS_S_AXIS_TKEEP
    top->s_axis_tkeep = offer ? 0xF : 0;
#endif
    top->m_axis_tready = sink_ready;
    settle();
    bool in_fire = offer && top->s_axis_tready;
    if (sink_ready && top->m_axis_tvalid)
      out_q.push_back(Word{(uint32_t)top->m_axis_tdata, (bool)top->m_axis_tlast});
    if (in_fire) in_q.pop_front();
    rise();
  }

  void reset() {
    top->aclk = 0;
    top->aresetn = 0;
    top->s_axi_wstrb = 0;
    top->eval();
    for (int i = 0; i < 2; i++) {
      rise();
      settle();
    }
    top->aresetn = 1;
    top->s_axi_wstrb = 0xF;
    settle();
  }
};

}  // namespace

PQC_EXPORT void* pqcv_new() {
  Model* m = new Model();
  m->reset();
  return m;
}

PQC_EXPORT void pqcv_free(void* p) { delete static_cast<Model*>(p); }

PQC_EXPORT uint64_t pqcv_cycles(const void* p) { return static_cast<const Model*>(p)->cycles; }

// 0: OKAY, 1: not answered within PQC_AXI_LIMIT clocks, 2: BRESP not OKAY.
PQC_EXPORT int pqcv_write(void* p, uint32_t offset, uint32_t value) {
  Model* m = static_cast<Model*>(p);
  Vtop* t = m->top;
  bool aw_done = false, w_done = false;
  uint64_t start = m->cycles;
  for (;;) {
    if (m->cycles - start >= PQC_AXI_LIMIT) {
      t->s_axi_awvalid = 0;
      t->s_axi_wvalid = 0;
      t->s_axi_bready = 0;
      return 1;
    }
    t->s_axi_awvalid = !aw_done;
    t->s_axi_awaddr = offset & PQC_ADDR_MASK;
    t->s_axi_wvalid = !w_done;
    t->s_axi_wdata = value;
    t->s_axi_wstrb = 0xF;
    t->s_axi_bready = 1;
    m->settle();
    bool aw_fire = !aw_done && t->s_axi_awready;
    bool w_fire = !w_done && t->s_axi_wready;
    bool b_fire = t->s_axi_bvalid;
    if (b_fire && t->s_axi_bresp != 0) return 2;
    m->clock_once();
    aw_done |= aw_fire;
    w_done |= w_fire;
    if (b_fire) {
      t->s_axi_awvalid = 0;
      t->s_axi_wvalid = 0;
      t->s_axi_bready = 0;
      m->settle();
      return 0;
    }
  }
}

// As pqcv_write; 2: RRESP not OKAY. The data goes to *value.
PQC_EXPORT int pqcv_read(void* p, uint32_t offset, uint32_t* value) {
  Model* m = static_cast<Model*>(p);
  Vtop* t = m->top;
  bool ar_done = false;
  uint64_t start = m->cycles;
  for (;;) {
    if (m->cycles - start >= PQC_AXI_LIMIT) {
      t->s_axi_arvalid = 0;
      t->s_axi_rready = 0;
      return 1;
    }
    t->s_axi_arvalid = !ar_done;
    t->s_axi_araddr = offset & PQC_ADDR_MASK;
    t->s_axi_rready = 1;
    m->settle();
    bool ar_fire = !ar_done && t->s_axi_arready;
    bool r_fire = t->s_axi_rvalid;
    uint32_t data = t->s_axi_rdata;
    if (r_fire && t->s_axi_rresp != 0) return 2;
    m->clock_once();
    ar_done |= ar_fire;
    if (r_fire) {
      t->s_axi_arvalid = 0;
      t->s_axi_rready = 0;
      m->settle();
      *value = data;
      return 0;
    }
  }
}

// Up to `max` clocks (at least one); stops after a clock that emptied the
// input queue or took an output word, the only events the DMA model reacts
// to. Returns the clocks run.
PQC_EXPORT uint64_t pqcv_run(void* p, uint64_t max) {
  Model* m = static_cast<Model*>(p);
  uint64_t n = 0;
  while (n < max) {
    bool had_input = !m->in_q.empty();
    size_t out_before = m->out_q.size();
    m->clock_once();
    n++;
    if ((had_input && m->in_q.empty()) || m->out_q.size() != out_before) break;
  }
  return n;
}

PQC_EXPORT void pqcv_push_input(void* p, const Word* words, size_t n) {
  Model* m = static_cast<Model*>(p);
  m->in_q.insert(m->in_q.end(), words, words + n);
}

PQC_EXPORT size_t pqcv_input_len(const void* p) { return static_cast<const Model*>(p)->in_q.size(); }

PQC_EXPORT void pqcv_drop_input(void* p) { static_cast<Model*>(p)->in_q.clear(); }

// 1 and the front output word in *word, or 0 if there is none.
PQC_EXPORT int pqcv_pop_output(void* p, Word* word) {
  Model* m = static_cast<Model*>(p);
  if (m->out_q.empty()) return 0;
  *word = m->out_q.front();
  m->out_q.pop_front();
  return 1;
}

PQC_EXPORT void pqcv_drop_output(void* p) { static_cast<Model*>(p)->out_q.clear(); }

PQC_EXPORT void pqcv_set_sink_ready(void* p, bool ready) { static_cast<Model*>(p)->sink_ready = ready; }

PQC_EXPORT bool pqcv_busy(void* p) { return static_cast<Model*>(p)->top->busy; }

// 1 if the VCD file was opened, 0 if this library was built without tracing.
PQC_EXPORT int pqcv_trace_open(void* p, const char* path) {
#if PQC_TRACE
  Model* m = static_cast<Model*>(p);
  if (m->vcd) return 1;
  m->vcd = new VerilatedVcdC;
  m->top->trace(m->vcd, 99);
  // A 100 MHz FCLK0: a clock is 10 ns.
  m->vcd->set_time_unit("1ns");
  m->vcd->set_time_resolution("1ns");
  m->vcd->open(path);
  return 1;
#else
  (void)p;
  (void)path;
  return 0;
#endif
}
