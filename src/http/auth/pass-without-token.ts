/**
 * The one way a request without credentials passes a bearer gate that lets some through (a public catalogue, a
 * CORS preflight): it goes on unauthenticated — unless its URL carries a token, which is refused with 400 rather
 * than ignored, since a token in a query has already leaked into logs and the client should hear so.
 */
import type { NextFunction, Request, Response } from "express";
import { refuseQueryToken } from "./bearer-token.js";
import { sendAuthFailure } from "./challenge.js";

/**
 * @example
 * if (req.headers.authorization === undefined) return passWithoutToken(req, res, next);
 */
export function passWithoutToken(req: Request, res: Response, next: NextFunction): void {
  try {
    refuseQueryToken(req.originalUrl);
  } catch (error) {
    sendAuthFailure(res, error);
    return;
  }
  next();
}
