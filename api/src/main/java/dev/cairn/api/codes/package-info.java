/**
 * {@code /api/v1/codes}: the executables calculation jobs run. An installed code is an absolute
 * path on a computer (JSON); a portable code is a set of uploaded files that travels with each job
 * (multipart). Codes are nodes: they are listed, shown, and deleted while no process has used
 * them. A code is named by uuid (or a unique prefix), by {@code label@computer}, or by its label
 * alone when only one code has it. Reading needs the role read, the rest admin.
 */
package dev.cairn.api.codes;
