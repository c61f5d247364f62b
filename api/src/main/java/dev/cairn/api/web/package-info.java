/**
 * What every endpoint shares: errors as RFC 9457 problem details (one exhaustive switch over
 * Cairn's error families), keyset paging with opaque cursors, and streaming helpers.
 */
package dev.cairn.api.web;
