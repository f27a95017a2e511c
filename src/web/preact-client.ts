import { options } from 'preact';

/**
 * What `react-dom/client` resolves to in the build (vite.config.ts runs the app on Preact).
 * Preact runs effects after the next animation frame, found through requestAnimationFrame and
 * setTimeout; React runs them from a message-channel task. Effects that move focus or start a
 * timer (the survey's result, its redirect) then also run while timers are held back, as in
 * a background tab or under a test's paused clock, exactly as they do on React.
 */
options.requestAnimationFrame = (callback) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(null);
};

export * from 'preact/compat/client';
