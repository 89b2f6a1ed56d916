// The todo app: data-client's example app, written for datafetch with
// only its imports changed. DataProvider gives the hooks their controller;
// nothing here loads datafetch.wasm by hand.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DataProvider } from 'datafetch/react';
import { App } from './App.jsx';

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <DataProvider>
      <App />
    </DataProvider>
  </StrictMode>,
);
