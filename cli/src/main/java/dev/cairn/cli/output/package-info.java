/** How results look: tables that fit the terminal, JSON, relative times, colours and progress bars. */
package dev.cairn.cli.output;
