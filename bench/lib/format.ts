/**
 * Number formatting for the printed tables.
 */
export function fixed(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "–";
}

export function mib(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(0) : "–";
}

export function kib(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 1024).toFixed(1) : "–";
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export function percent(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(0)}%` : "–";
}
