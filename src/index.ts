// Worker entry point.
import { createApp } from './app.js';

export default createApp();
