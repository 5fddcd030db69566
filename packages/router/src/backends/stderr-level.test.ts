import { describe, expect, it } from 'vitest';
import { createLogger } from '@promptyard/core';
import type { LogRecord } from '@promptyard/core';
import { logStderrLine, readStderrLevel } from './stderr-level.js';

describe('readStderrLevel', () => {
  it.each([
    ['WARNING:root:disk almost full', 'warning'],
    ['2026-11-24T05:00:00.123Z ERROR connection refused', 'error'],
    ['[2026-11-24 05:00:00,123] WARN  my_crate] slow query', 'warning'],
    ['[error] boom', 'error'],
    ['ERR something broke', 'error'],
    ['DEBUG resolved config', 'debug'],
    ['INFO:     Uvicorn running on http://127.0.0.1:8000', 'info'],
    ['CRITICAL: out of memory', 'critical'],
    ['FATAL could not bind', 'critical'],
    ['(node:4242) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to 0', 'warning'],
    ['Error: ENOENT: no such file or directory', 'error'],
    ['time=2026-11-24T05:00:00Z level=WARN msg="retrying"', 'warning'],
    ['{"level":50,"time":1,"msg":"pino error"}', 'error'],
    ['{"level":30,"msg":"pino info"}', 'info'],
    ['{"level":60,"msg":"pino fatal"}', 'critical'],
    ['{"level":"warn","message":"winston"}', 'warning'],
    ['{"severity":"ERROR","message":"cloud logging"}', 'error'],
    ['{"levelname":"DEBUG","event":"structlog"}', 'debug'],
  ])('reads %j as %s', (line, level) => {
    expect(readStderrLevel(line)).toBe(level);
  });

  it.each([
    'Knowledge Graph MCP Server running on stdio',
    'error handling is enabled',
    'Loaded 3 tools; no errors',
    'DEBUG=1 was set',
    'ERR_MODULE_NOT_FOUND while loading a plugin',
    '{"msg":"json without a level"}',
    '{not json at all',
    '',
  ])('finds no level in %j', (line) => {
    expect(readStderrLevel(line)).toBeUndefined();
  });
});

describe('logStderrLine', () => {
  it('logs warnings and errors at their level, the rest at debug, and returns the level (info when none)', () => {
    const records: LogRecord[] = [];
    const logger = createLogger({ level: 'debug', write: () => {} });
    logger.subscribe((record) => records.push(record));
    expect(logStderrLine(logger, 'fs', 'WARN low disk')).toBe('warning');
    expect(logStderrLine(logger, 'fs', 'FATAL gone')).toBe('critical');
    expect(logStderrLine(logger, 'fs', 'server running')).toBe('info');
    expect(records.map((record) => [record.level, record.fields['level'], record.fields['server']])).toEqual([
      ['warning', 'warning', 'fs'],
      ['error', 'critical', 'fs'],
      ['debug', 'info', 'fs'],
    ]);
  });
});
