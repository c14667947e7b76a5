/* timer_demo: arms the machine timer, sleeps in WFI until its interrupt, prints, exits 0. */
#include <stdio.h>

#include "hal/socsim_hal.h"

static volatile int timer_fired;

void socsim_timer_irq_handler(void) {
  socsim_timer_disarm();
  timer_fired = 1;
}

int main(void) {
  const uint64_t delay_us = 100;
  uint64_t start = socsim_timer_now();
  socsim_timer_set_compare(start + socsim_timer_ticks_from_us(delay_us));
  socsim_timer_irq_enable();
  socsim_irq_global_enable();
  while (!timer_fired) socsim_wait_for_interrupt();
  socsim_irq_global_disable();
  socsim_timer_irq_disable();
  uint64_t elapsed = socsim_timer_now() - start;
  printf("timer_demo: woke by the timer interrupt after %llu ticks (%llu us requested)\n",
         (unsigned long long)elapsed, (unsigned long long)delay_us);
  return 0;
}
