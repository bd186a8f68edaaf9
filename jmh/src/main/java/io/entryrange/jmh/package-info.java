/** JMH benchmarks of plan-task redemption and the comparison report. */
package io.entryrange.jmh;
