// The gateway config files (still here until they leave the package) read these at their old path; the names live in routes/.
export { NAME_CHARACTERS, uriScheme } from './routes/names.js';
