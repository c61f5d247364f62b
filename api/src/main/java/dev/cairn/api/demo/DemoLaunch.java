package dev.cairn.api.demo;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessDefinition;

/**
 * One process the demo submits.
 *
 * @param title  how the table names it, with its inputs: {@code arithmetic.add_multiply(x=2, y=3, z=4)}
 * @param output the output port whose value the table shows
 */
record DemoLaunch(String title, ProcessDefinition definition, Inputs inputs, String output) {}
