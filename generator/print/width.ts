/**
 * The width every generated file is laid out for: prettier's printWidth in the print stage, and
 * what the layouts that skip prettier (indent.ts, print-data.ts, a view's own break) aim at. In a
 * module of its own so emitters read it without loading prettier.
 */
export const PRINT_WIDTH = 120;
