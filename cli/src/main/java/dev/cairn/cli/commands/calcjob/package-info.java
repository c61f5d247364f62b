/**
 * cairn calcjob: what a calculation job left behind (its input and output files, its results) and a shell on its computer in its folder.
 */
package dev.cairn.cli.commands.calcjob;
